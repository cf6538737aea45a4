import type { WebhookEndpointEntity } from '#app/persistence';
import type { EndpointHealth } from './webhook-endpoints.repository.js';

/**
 * The WebhookEndpoint resource (docs/decisions.md, "Webhook endpoint limits and pings"); `secret`
 * only in the answers to create and rotate.
 */
export interface WebhookEndpointView {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  livemode: boolean;
  createdAt: string;
  secret?: string;
}

export function toWebhookEndpointView(
  endpoint: WebhookEndpointEntity,
  secret?: string,
): WebhookEndpointView {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    enabled: endpoint.enabled,
    livemode: endpoint.livemode,
    createdAt: endpoint.createdAt.toISOString(),
    ...(secret === undefined ? {} : { secret }),
  };
}

/** One attempt under `GET /v1/webhook_endpoints/{id}/deliveries`. */
export interface WebhookAttemptView {
  eventId: string;
  attempt: number;
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
  createdAt: string;
}

/** An endpoint as the operator sees it: the resource plus its delivery health. */
export interface WebhookEndpointHealthView extends WebhookEndpointView {
  disabledAt: string | null;
  failingSince: string | null;
  pendingDeliveries: number;
  failedDeliveries: number;
  deliveredDeliveries: number;
  lastAttempt: { at: string; httpStatus: number | null; error: string | null } | null;
}

export function toHealthView(health: EndpointHealth): WebhookEndpointHealthView {
  const { endpoint } = health;
  return {
    ...toWebhookEndpointView(endpoint),
    disabledAt: endpoint.disabledAt?.toISOString() ?? null,
    failingSince: endpoint.failingSince?.toISOString() ?? null,
    pendingDeliveries: health.pending,
    failedDeliveries: health.failed,
    deliveredDeliveries: health.delivered,
    lastAttempt: health.lastAttemptAt
      ? {
          at: health.lastAttemptAt.toISOString(),
          httpStatus: health.lastAttemptStatus,
          error: health.lastAttemptError,
        }
      : null,
  };
}
