import { Module } from '@nestjs/common';
import { WebhooksModule } from '#app/webhooks';
import { DashboardCoreModule } from '../dashboard-core.module.js';
import { WebhooksController } from './webhooks.controller.js';

/** The Webhooks pages. The endpoints service comes from the api's `WebhooksModule` of the libs. */
@Module({
  imports: [DashboardCoreModule, WebhooksModule],
  controllers: [WebhooksController],
})
export class WebhooksPagesModule {}
