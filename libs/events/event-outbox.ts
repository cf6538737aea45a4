import type { BatchStatement } from '#app/persistence';

/**
 * Where a recorded event goes next, inside the statement that records it (the webhook outbox).
 * A port so this lib never depends on who listens; the app root binds it
 * (`EventRecorder.bindOutbox`).
 */
export interface EventOutbox {
  /**
   * Adds the steps that hand on each event the step `recorded` returns (its `id`,
   * `organization_id`, `livemode` and `type`).
   */
  enqueueWithin(statement: BatchStatement, recorded: string): void;
}
