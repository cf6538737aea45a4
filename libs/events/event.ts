import { randomBytes } from 'node:crypto';
import type { SwapView } from '#app/domain';

/**
 * What a partner can be told about (docs/decisions.md, "The event feed"); `endpoint.ping` is sent,
 * never stored.
 */
export const EVENT_TYPES = ['swap.created', 'swap.status_changed'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The one event that is sent but never stored: a test of one webhook endpoint. */
export const PING_EVENT_TYPE = 'endpoint.ping';

/** Every type a webhook delivery can carry. */
export const WEBHOOK_EVENT_TYPES = [...EVENT_TYPES, PING_EVENT_TYPE] as const;

/** `evt_` + 24 lowercase hex from a CSPRNG. */
export const EVENT_ID = /^evt_[0-9a-f]{24}$/;

export function newEventId(): string {
  return `evt_${randomBytes(12).toString('hex')}`;
}

/** The Event resource: what the feed, a swap's history and a webhook body all carry. */
export interface PartnerEvent<Type extends string = EventType> {
  id: string;
  type: Type;
  createdAt: string;
  livemode: boolean;
  data: EventData;
}

export interface EventData {
  /** The swap resource exactly as `GET /v1/swaps/{id}` rendered it right after the change. */
  swap: SwapView;
  /** The status before the change; null for `swap.created`. */
  previousStatus: string | null;
}

/** An event with its owner, as it is stored and fanned out to webhook endpoints. */
export interface RecordedEvent extends PartnerEvent {
  organizationId: string;
}

/** The body of a ping (`POST /v1/webhook_endpoints/{id}/ping`). */
export interface PingEvent {
  id: string;
  type: typeof PING_EVENT_TYPE;
  createdAt: string;
  livemode: boolean;
  data: { webhookEndpointId: string };
}
