import type { EntityManager } from 'typeorm';
import type { RecordedEvent } from './event.js';

/**
 * Where a recorded event goes next, inside the transaction that recorded it (the webhook
 * outbox). A port so this lib never depends on who listens; the apps bind it (`EventsModule`).
 */
export interface EventOutbox {
  enqueue(manager: EntityManager, event: RecordedEvent): Promise<void>;
}

export const EVENT_OUTBOX = Symbol('EVENT_OUTBOX');
