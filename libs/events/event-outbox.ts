import type { EntityManager } from 'typeorm';
import type { RecordedEvent } from './event.js';

/**
 * Where a recorded event goes next, inside the transaction that recorded it (the webhook
 * outbox). A port so this lib never depends on who listens; the app root binds it
 * (`EventRecorder.bindOutbox`).
 */
export interface EventOutbox {
  enqueue(manager: EntityManager, event: RecordedEvent): Promise<void>;
}
