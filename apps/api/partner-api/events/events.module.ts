import { Module } from '@nestjs/common';
import { EventsModule as EventsDomainModule } from '#app/events';
import { SwapsModule } from '#app/swaps';
import { PartnerApiModule } from '../../platform/auth/partner-api.module.js';
import { EventsController } from './events.controller.js';
import { EventsService } from './events.service.js';

/** `/v1/events` and `/v1/swaps/{id}/events`. */
@Module({
  imports: [EventsDomainModule, SwapsModule, PartnerApiModule],
  controllers: [EventsController],
  providers: [EventsService],
})
export class EventsModule {}
