import { Module } from '@nestjs/common';
import { EventRecorder } from './event.recorder.js';
import { EventsQueryService } from './events-query.service.js';
import { EventsRepository } from './events.repository.js';

/**
 * The event store and its recorder, for the libs that record swap changes (swaps, polling)
 * and the api's feed. The app root binds the outbox (`EventRecorder.bindOutbox`), so this lib
 * never depends on the webhooks lib that consumes it.
 */
@Module({
  providers: [EventsRepository, EventRecorder, EventsQueryService],
  exports: [EventsRepository, EventRecorder, EventsQueryService],
})
export class EventsModule {}
