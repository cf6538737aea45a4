import { Module } from '@nestjs/common';
import { WebhooksModule } from '#app/webhooks';
import { PartnerApiModule } from '../../platform/auth/partner-api.module.js';
import { WebhookEndpointsController } from './webhook-endpoints.controller.js';

/** `/v1/webhook_endpoints`. */
@Module({ imports: [WebhooksModule, PartnerApiModule], controllers: [WebhookEndpointsController] })
export class WebhookEndpointsModule {}
