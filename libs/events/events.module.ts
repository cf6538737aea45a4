import { Module } from '@nestjs/common';
import { EventRecorder } from './event.recorder.js';
import { EventsRepository } from './events.repository.js';

/**
 * The event store and its recorder, for the libs that record swap changes (swaps, settlement)
 * and the api's feed. The app root binds the outbox (`EventRecorder.bindOutbox`), so this lib
 * never depends on the webhooks lib that consumes it.
 */
@Module({
  providers: [EventsRepository, EventRecorder],
  exports: [EventsRepository, EventRecorder],
})
export class EventsModule {}
