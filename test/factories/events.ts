import type { SwapStatus, SwapView } from '#app/domain';
import { newEventId, type EventType, type RecordedEvent } from '#app/events';

export interface EventFields {
  type: EventType;
  organizationId: string;
  /** The swap as the change left it, rendered as a partner reads it. */
  swap: SwapView;
  /** Null for `swap.created`. */
  previousStatus?: SwapStatus | null;
}

/** An event as `EventRecorder` records it: a fresh `evt_` id, now, the swap's mode. */
export function recordedEvent(fields: EventFields): RecordedEvent {
  return {
    id: newEventId(),
    type: fields.type,
    createdAt: new Date().toISOString(),
    livemode: fields.swap.livemode,
    data: { swap: fields.swap, previousStatus: fields.previousStatus ?? null },
    organizationId: fields.organizationId,
  };
}
