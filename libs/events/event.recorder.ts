import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { BatchStatement, type SqlRunner } from '#app/persistence';
import type { SwapStatus, SwapView } from '#app/domain';
import { newEventId, type EventType, type RecordedEvent } from './event.js';
import type { EventOutbox } from './event-outbox.js';
import { EventsRepository } from './events.repository.js';

/** A swap's status change, to be told as `swap.status_changed`. */
export interface StatusChange {
  organizationId: string;
  /** The swap as stored after the change, rendered as `GET /v1/swaps/{id}` renders it. */
  swap: SwapView;
  previousStatus: SwapStatus;
}

/**
 * Records the partner-facing event of a swap change in the statement or transaction that makes
 * the change, and hands it to the outbox in that same statement: the change, its event and its
 * webhook deliveries commit together or not at all.
 */
@Injectable()
export class EventRecorder implements OnApplicationBootstrap {
  private outbox: EventOutbox | null = null;

  constructor(private readonly events: EventsRepository) {}

  /** The app binds the outbox once, from its root module: this lib never knows who listens. */
  bindOutbox(outbox: EventOutbox): void {
    if (this.outbox) {
      throw new Error('the event outbox is bound once per process');
    }
    this.outbox = outbox;
  }

  /** A process that records events without an outbox would lose webhooks: it does not start. */
  onApplicationBootstrap(): void {
    this.requireOutbox();
  }

  private requireOutbox(): EventOutbox {
    if (!this.outbox) {
      throw new Error('no event outbox is bound: the app root must call EventRecorder.bindOutbox');
    }
    return this.outbox;
  }

  /**
   * `swap` is the swap as stored, rendered as `GET /v1/swaps/{id}` renders it; recorded in the
   * caller's transaction (`manager`), one statement.
   */
  async swapCreated(manager: SqlRunner, organizationId: string, swap: SwapView): Promise<void> {
    const statement = new BatchStatement();
    this.recordWithin(statement, [event('swap.created', organizationId, swap, null)]);
    await statement.run(manager, 'SELECT 1');
  }

  /** One change's `swap.status_changed`, recorded in the caller's transaction, one statement. */
  async swapStatusChanged(
    manager: SqlRunner,
    organizationId: string,
    swap: SwapView,
    previousStatus: SwapStatus,
  ): Promise<void> {
    const statement = new BatchStatement();
    this.recordWithin(statement, [
      event('swap.status_changed', organizationId, swap, previousStatus),
    ]);
    await statement.run(manager, 'SELECT 1');
  }

  /**
   * Steps recording each change's `swap.status_changed` and its webhook deliveries in
   * `statement`, each only if its swap is among the ids the step `written` returns.
   */
  statusChangedWithin(statement: BatchStatement, changes: StatusChange[], written: string): void {
    if (changes.length === 0) {
      return;
    }
    this.recordWithin(
      statement,
      changes.map((change) =>
        event('swap.status_changed', change.organizationId, change.swap, change.previousStatus),
      ),
      written,
    );
  }

  private recordWithin(statement: BatchStatement, events: RecordedEvent[], written?: string): void {
    this.requireOutbox().enqueueWithin(
      statement,
      this.events.insertWithin(statement, events, written),
    );
  }
}

function event(
  type: EventType,
  organizationId: string,
  swap: SwapView,
  previousStatus: SwapStatus | null,
): RecordedEvent {
  return {
    id: newEventId(),
    type,
    createdAt: new Date().toISOString(),
    livemode: swap.livemode,
    data: { swap, previousStatus },
    organizationId,
  };
}
