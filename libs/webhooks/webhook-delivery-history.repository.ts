import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { OwnerScope } from '#app/domain';
import {
  checkedRows,
  WEBHOOK_DELIVERY_STATUSES,
  type RowOf,
  type WebhookDeliveryStatus,
} from '#app/persistence';

/** One attempt as a partner sees it under `/deliveries`. */
export interface AttemptRecord {
  eventId: string;
  attempt: number;
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
  createdAt: Date;
}

/** One attempt with its id, the cursor of the dashboard's pages of attempts. */
export interface AttemptRow extends AttemptRecord {
  id: string;
}

/** A delivery of one of a swap's events, with its latest attempt, as the swap's page shows it. */
export interface SwapDeliveryView {
  eventId: string;
  eventType: string;
  endpointId: string;
  url: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  /** When the next attempt is due, for a pending delivery. */
  nextAttemptAt: string | null;
  finishedAt: string | null;
  lastAttemptAt: string | null;
  lastHttpStatus: number | null;
  lastError: string | null;
}

/** One delivery of an event to one of the owner's endpoints, as the event's page shows it. */
export interface EventDelivery {
  id: string;
  endpointId: string;
  url: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: Date;
  createdAt: Date;
  finishedAt: Date | null;
  /** Who asked for it again; null for the delivery the event made. */
  resentBy: string | null;
  lastHttpStatus: number | null;
  lastError: string | null;
}

/** A resend: a new delivery, or the pending one brought forward to now. */
export interface Resend {
  deliveryId: string;
  created: boolean;
}

const ISO = (column: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The columns of one attempt. */
const ATTEMPT_ROW = {
  event_id: 'string',
  attempt: 'number',
  http_status: 'number?',
  error: 'string?',
  duration_ms: 'number',
  created_at: 'date',
} as const;

/** The columns of a swap's delivery, named as `SwapDeliveryView`'s fields. */
const SWAP_DELIVERY_ROW = {
  eventId: 'string',
  eventType: 'string',
  endpointId: 'string',
  url: 'string',
  status: WEBHOOK_DELIVERY_STATUSES,
  attempts: 'number',
  nextAttemptAt: 'string?',
  finishedAt: 'string?',
  lastAttemptAt: 'string?',
  lastHttpStatus: 'number?',
  lastError: 'string?',
} as const;

function toAttempt(row: RowOf<typeof ATTEMPT_ROW>): AttemptRecord {
  return {
    eventId: row.event_id,
    attempt: row.attempt,
    httpStatus: row.http_status,
    error: row.error,
    durationMs: row.duration_ms,
    createdAt: row.created_at,
  };
}

/**
 * What partners see of their deliveries and do with them (the API's `/deliveries`, the
 * dashboard's swap, event and endpoint pages): attempts, each event's and each swap's
 * deliveries, a resend. Always scoped to the owner's endpoints.
 */
@Injectable()
export class WebhookDeliveryHistory {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The endpoint's latest attempts, newest first. */
  async latestAttempts(endpointId: string, limit: number): Promise<AttemptRecord[]> {
    const rows = await checkedRows(
      this.dataSource,
      ATTEMPT_ROW,
      `SELECT event_id, attempt, http_status, error, duration_ms, created_at
         FROM webhook_attempts WHERE endpoint_id = $1 ORDER BY id DESC LIMIT $2`,
      [endpointId, limit],
    );
    return rows.map(toAttempt);
  }

  /**
   * The deliveries of the owner's events about one swap, in event order, each with its latest
   * attempt. Scoped by the owner on the events and on the endpoints both, so another
   * organization's or mode's swap id reads as no deliveries.
   */
  async listForSwap(swapId: string, owner: OwnerScope): Promise<SwapDeliveryView[]> {
    return checkedRows(
      this.dataSource,
      SWAP_DELIVERY_ROW,
      `SELECT e.id AS "eventId", e.type AS "eventType", d.endpoint_id AS "endpointId", w.url,
              d.status, d.attempts,
              CASE WHEN d.status = 'pending' THEN ${ISO('d.next_attempt_at')} END AS "nextAttemptAt",
              ${ISO('d.finished_at')} AS "finishedAt",
              ${ISO('a.created_at')} AS "lastAttemptAt",
              a.http_status AS "lastHttpStatus", a.error AS "lastError"
         FROM events e
         JOIN webhook_deliveries d ON d.event_id = e.id
         JOIN webhook_endpoints w ON w.id = d.endpoint_id
         LEFT JOIN LATERAL (
           SELECT created_at, http_status, error FROM webhook_attempts
            WHERE delivery_id = d.id ORDER BY attempt DESC LIMIT 1) a ON true
        WHERE e.swap_id = $1 AND e.organization_id = $2 AND e.livemode = $3
          AND w.organization_id = $2 AND w.livemode = $3
        ORDER BY e.seq, d.id`,
      [swapId, owner.organizationId, owner.livemode],
    );
  }

  /**
   * A page of the endpoint's attempts, newest first, older than attempt `before` when given;
   * `limit + 1` rows are read so the caller knows whether there is another page.
   */
  async attemptPage(
    endpointId: string,
    before: string | null,
    limit: number,
  ): Promise<{ attempts: AttemptRow[]; hasMore: boolean }> {
    const rows = await checkedRows(
      this.dataSource,
      { ...ATTEMPT_ROW, id: 'string' },
      `SELECT id::text AS id, event_id, attempt, http_status, error, duration_ms, created_at
         FROM webhook_attempts
        WHERE endpoint_id = $1 AND ($2::bigint IS NULL OR id < $2::bigint)
        ORDER BY id DESC LIMIT $3`,
      [endpointId, before, limit + 1],
    );
    return {
      attempts: rows.slice(0, limit).map((row) => ({ id: row.id, ...toAttempt(row) })),
      hasMore: rows.length > limit,
    };
  }

  /**
   * Delivers the event to the endpoint again: a new pending delivery (with a retry window of its
   * own) asked for by `actor`, or, while one is still pending, that one made due now.
   */
  async resend(endpointId: string, eventId: string, actor: string): Promise<Resend> {
    const rows = await checkedRows(
      this.dataSource,
      { id: 'string', created: 'boolean' },
      `INSERT INTO webhook_deliveries (endpoint_id, event_id, next_attempt_at, resent_by)
         VALUES ($1, $2, now(), $3)
         ON CONFLICT (endpoint_id, event_id) WHERE status = 'pending'
         DO UPDATE SET next_attempt_at = now()
         RETURNING id::text AS id, (xmax = 0) AS created`,
      [endpointId, eventId, actor],
    );
    return { deliveryId: rows[0].id, created: rows[0].created };
  }

  /** The deliveries of the owner's event to the owner's endpoints, newest first. */
  async forEvent(eventId: string, owner: OwnerScope): Promise<EventDelivery[]> {
    const rows = await checkedRows(
      this.dataSource,
      {
        id: 'string',
        endpoint_id: 'string',
        url: 'string',
        status: WEBHOOK_DELIVERY_STATUSES,
        attempts: 'number',
        next_attempt_at: 'date',
        created_at: 'date',
        finished_at: 'date?',
        resent_by: 'string?',
        http_status: 'number?',
        error: 'string?',
      },
      `SELECT d.id::text AS id, d.endpoint_id, w.url, d.status, d.attempts, d.next_attempt_at,
              d.created_at, d.finished_at, d.resent_by, a.http_status, a.error
         FROM webhook_deliveries d
         JOIN webhook_endpoints w ON w.id = d.endpoint_id
         LEFT JOIN LATERAL (
           SELECT http_status, error FROM webhook_attempts
            WHERE delivery_id = d.id ORDER BY id DESC LIMIT 1) a ON true
        WHERE d.event_id = $1 AND w.organization_id = $2 AND w.livemode = $3
        ORDER BY d.id DESC`,
      [eventId, owner.organizationId, owner.livemode],
    );
    return rows.map((row) => ({
      id: row.id,
      endpointId: row.endpoint_id,
      url: row.url,
      status: row.status,
      attempts: row.attempts,
      nextAttemptAt: row.next_attempt_at,
      createdAt: row.created_at,
      finishedAt: row.finished_at,
      resentBy: row.resent_by,
      lastHttpStatus: row.http_status,
      lastError: row.error,
    }));
  }
}
