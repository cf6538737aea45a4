import { Module } from '@nestjs/common';
import { WebhookEndpointsController } from './webhook-endpoints.controller.js';

/** `/v1/webhook_endpoints`. Needs the global WebhooksModule of `#app/webhooks`. */
@Module({ controllers: [WebhookEndpointsController] })
export class WebhookEndpointsModule {}
