import type { SwapStatus, SwapView } from '#app/domain';
import type { EventRecorder, RecordedEvent } from '#app/events';
import { recordedEvent } from '../factories/events.js';

/** The event recorder without its table and outbox: the events it recorded, in order. */
export class FakeEventRecorder implements Pick<EventRecorder, 'swapCreated' | 'swapStatusChanged'> {
  readonly recorded: RecordedEvent[] = [];

  swapCreated(_manager: unknown, organizationId: string, swap: SwapView): Promise<void> {
    this.recorded.push(recordedEvent({ type: 'swap.created', organizationId, swap }));
    return Promise.resolve();
  }

  swapStatusChanged(
    _manager: unknown,
    organizationId: string,
    swap: SwapView,
    previousStatus: SwapStatus,
  ): Promise<void> {
    this.recorded.push(
      recordedEvent({ type: 'swap.status_changed', organizationId, swap, previousStatus }),
    );
    return Promise.resolve();
  }
}
