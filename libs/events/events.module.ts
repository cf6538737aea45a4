import { DynamicModule, Module, type ModuleMetadata, type Type } from '@nestjs/common';
import { EVENT_OUTBOX, type EventOutbox } from './event-outbox.js';
import { EventRecorder } from './event.recorder.js';
import { EventsQueryService } from './events-query.service.js';
import { EventsRepository } from './events.repository.js';

export interface EventsModuleOptions {
  /** The module that provides the outbox (the webhooks lib's). */
  imports: ModuleMetadata['imports'];
  outbox: Type<EventOutbox>;
}

/**
 * The event store and its recorder, global so the swaps and settlement libs can record events.
 * The app binds the outbox, so this lib never depends on the webhooks lib that consumes it.
 */
@Module({})
export class EventsModule {
  static forRoot(options: EventsModuleOptions): DynamicModule {
    return {
      module: EventsModule,
      global: true,
      imports: options.imports,
      providers: [
        EventsRepository,
        EventRecorder,
        EventsQueryService,
        { provide: EVENT_OUTBOX, useExisting: options.outbox },
      ],
      exports: [EventsRepository, EventRecorder, EventsQueryService],
    };
  }
}
