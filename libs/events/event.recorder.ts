import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SwapStatus, SwapView } from '#app/domain';
import { newEventId, type EventType, type RecordedEvent } from './event.js';
import type { EventOutbox } from './event-outbox.js';
import { EventsRepository } from './events.repository.js';

/**
 * Records the partner-facing event of a swap change in the caller's transaction, the one that
 * makes the change, and hands it to the outbox in that same transaction: the change, its event
 * and its webhook deliveries commit together or not at all.
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

  /** `swap` is the swap as stored, rendered as `GET /v1/swaps/{id}` renders it. */
  swapCreated(manager: EntityManager, organizationId: string, swap: SwapView): Promise<void> {
    return this.record(manager, organizationId, 'swap.created', swap, null);
  }

  swapStatusChanged(
    manager: EntityManager,
    organizationId: string,
    swap: SwapView,
    previousStatus: SwapStatus,
  ): Promise<void> {
    return this.record(manager, organizationId, 'swap.status_changed', swap, previousStatus);
  }

  private async record(
    manager: EntityManager,
    organizationId: string,
    type: EventType,
    swap: SwapView,
    previousStatus: SwapStatus | null,
  ): Promise<void> {
    const event: RecordedEvent = {
      id: newEventId(),
      type,
      createdAt: new Date().toISOString(),
      livemode: swap.livemode,
      data: { swap, previousStatus },
      organizationId,
    };
    await this.events.insert(manager, event);
    await this.requireOutbox().enqueue(manager, event);
  }
}
