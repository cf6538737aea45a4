import { Module } from '@nestjs/common';
import { EventsModule } from '#app/events';
import { WebhooksModule } from '#app/webhooks';
import { DashboardCoreModule } from '../dashboard-core.module.js';
import { EventsPagesController } from './events.controller.js';

/**
 * The Events pages. The events query and the endpoints service (an event's page resends) come
 * from the api's `EventsModule` and `WebhooksModule` of the libs.
 */
@Module({
  imports: [DashboardCoreModule, EventsModule, WebhooksModule],
  controllers: [EventsPagesController],
})
export class EventsPagesModule {}
