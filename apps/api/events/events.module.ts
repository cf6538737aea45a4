import { Module } from '@nestjs/common';
import { EventsController } from './events.controller.js';
import { EventsService } from './events.service.js';

/** `/v1/events` and `/v1/swaps/{id}/events`. Needs the global events and swaps modules. */
@Module({ controllers: [EventsController], providers: [EventsService] })
export class EventsModule {}
