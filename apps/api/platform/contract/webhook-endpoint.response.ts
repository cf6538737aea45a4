import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EVENT_TYPES } from '#app/events';
import type {
  WebhookAttemptView,
  WebhookEndpointHealthView,
  WebhookEndpointView,
} from '#app/webhooks';

/** The WebhookEndpoint resource (docs/decisions.md, "Webhook endpoint limits and pings"). */
export class WebhookEndpointResource implements WebhookEndpointView {
  @ApiProperty({ example: 'we_5b1e0c9d8a7f6e5d4c3b2a19' }) id: string;
  @ApiProperty() url: string;
  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...EVENT_TYPES] } })
  events: string[];
  @ApiProperty({ type: 'string', nullable: true }) description: string | null;
  @ApiProperty() enabled: boolean;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ type: 'string', format: 'date-time' }) createdAt: string;
  @ApiPropertyOptional({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'The signing secret: only in the answers to create and rotate_secret.',
  })
  secret?: string;
}

export class WebhookEndpointResponse {
  @ApiProperty({ type: WebhookEndpointResource }) webhookEndpoint: WebhookEndpointResource;
}

export class WebhookEndpointListResponse {
  @ApiProperty({ type: [WebhookEndpointResource] }) webhookEndpoints: WebhookEndpointResource[];
}

/** One delivery attempt (or the ping's single one). */
export class WebhookAttemptResource implements WebhookAttemptView {
  @ApiProperty() eventId: string;
  @ApiProperty({ type: 'integer' }) attempt: number;
  @ApiProperty({ type: 'integer', nullable: true }) httpStatus: number | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'Why no status came back.' })
  error: string | null;
  @ApiProperty({ type: 'integer' }) durationMs: number;
  @ApiProperty({ type: 'string', format: 'date-time' }) createdAt: string;
}

export class WebhookAttemptListResponse {
  @ApiProperty({ type: [WebhookAttemptResource] }) deliveries: WebhookAttemptResource[];
}

export class WebhookPingResponse {
  @ApiProperty({ type: WebhookAttemptResource }) delivery: WebhookAttemptResource;
}

class LastAttemptResource {
  @ApiProperty({ type: 'string', format: 'date-time' }) at: string;
  @ApiProperty({ type: 'integer', nullable: true }) httpStatus: number | null;
  @ApiProperty({ type: 'string', nullable: true }) error: string | null;
}

/** An endpoint with its delivery health, for the operator. */
export class WebhookEndpointHealthResource
  extends WebhookEndpointResource
  implements WebhookEndpointHealthView
{
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) disabledAt: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  failingSince: string | null;
  @ApiProperty({ type: 'integer' }) pendingDeliveries: number;
  @ApiProperty({ type: 'integer' }) failedDeliveries: number;
  @ApiProperty({ type: 'integer' }) deliveredDeliveries: number;
  @ApiProperty({ type: LastAttemptResource, nullable: true })
  lastAttempt: LastAttemptResource | null;
}

export class WebhookEndpointHealthListResponse {
  @ApiProperty({ type: [WebhookEndpointHealthResource] })
  webhookEndpoints: WebhookEndpointHealthResource[];
}
