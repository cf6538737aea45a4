import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { OwnerScope } from '#app/domain';
import type { PartnerEvent } from '#app/events';
import {
  changedRows,
  queryRows,
  type BatchStatement,
  type WebhookDeliveryStatus,
} from '#app/persistence';

/** A leased delivery with what sending it needs: the endpoint and the event. */
export interface ClaimedDelivery {
  id: string;
  /** Attempts made before this one. */
  attempts: number;
  createdAt: Date;
  endpointId: string;
  organizationId: string;
  url: string;
  livemode: boolean;
  secretCiphertext: string;
  previousSecretCiphertext: string | null;
  previousSecretExpiresAt: Date | null;
  /** The endpoint had no failure on record when this was claimed: a success changes nothing. */
  endpointHealthy: boolean;
  event: PartnerEvent;
}

/** What the poller's backlog gauges show. */
export interface WebhookBacklog {
  pending: number;
  oldestAgeSeconds: number;
  endpoints: { endpointId: string; oldestAgeSeconds: number }[];
}

/** How evenly a claim shares the sending slots between endpoints. */
export interface ClaimFairness {
  /** Sends in flight at once to one endpoint, across every poller. */
  perEndpoint: number;
  /** Timeouts in a row after which an endpoint gets one send at a time (a probe). */
  probeAfterTimeouts: number;
}

/** One attempt as a partner sees it under `/deliveries`. */
export interface AttemptRecord {
  eventId: string;
  attempt: number;
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
  createdAt: Date;
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

const ISO = (column: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** One attempt with its id, the cursor of the dashboard's pages of attempts. */
export interface AttemptRow extends AttemptRecord {
  id: string;
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

/** What one attempt decided about its delivery. */
export interface AttemptOutcome {
  status: WebhookDeliveryStatus;
  /** When to try again, for a delivery still pending. */
  nextAttemptAt: Date | null;
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
}

interface ClaimRow {
  id: string;
  attempts: number;
  created_at: Date;
  endpoint_id: string;
  organization_id: string;
  url: string;
  livemode: boolean;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: Date | null;
  endpoint_healthy: boolean;
  event_id: string;
  event_type: PartnerEvent['type'];
  event_created_at: Date;
  data: PartnerEvent['data'];
}

interface AttemptSqlRow {
  event_id: string;
  attempt: number;
  http_status: number | null;
  error: string | null;
  duration_ms: number;
  created_at: Date;
}

function toAttempt(row: AttemptSqlRow): AttemptRecord {
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
 * The webhook outbox (`webhook_deliveries`) and its attempt log (`webhook_attempts`), the only
 * writer of both. Deliveries are leased like swap claims (`FOR UPDATE SKIP LOCKED`, an owner and
 * an expiry): two pollers never hold one delivery at once, and a dead poller's lease runs out.
 * Times come from the caller's clock, so the retry window and disabling can be tested.
 */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * A step queueing one delivery of each event the step `recorded` returns (`id`,
   * `organization_id`, `livemode`, `type`) to every enabled endpoint of its organization and mode
   * that subscribes to its type, in the statement that records the event.
   */
  enqueueWithin(statement: BatchStatement, recorded: string): void {
    statement.step(
      'enqueued_deliveries',
      `INSERT INTO webhook_deliveries (endpoint_id, event_id, next_attempt_at)
       SELECT w.id, e.id, now()
         FROM ${recorded} e JOIN webhook_endpoints w
           ON w.organization_id = e.organization_id AND w.livemode = e.livemode
          AND w.enabled AND e.type = ANY(w.events)
       RETURNING id`,
    );
  }

  /**
   * Leases up to `limit` due deliveries for `leaseMs`, fairly: each enabled endpoint whose
   * circuit is closed gets at most `fairness.perEndpoint` sends in flight across every poller
   * (one, a probe, once it has timed out `fairness.probeAfterTimeouts` times in a row), and the
   * batch takes turns, round-robin, between organizations and, within one, between its
   * endpoints, oldest due first within a turn. So a receiver that hangs holds a few slots, never
   * the whole batch, and a backlog of one partner never stands in front of another's new event.
   * Rows another poller is claiming are skipped; an expired lease is claimed again.
   */
  async claimDue(
    owner: string,
    now: Date,
    limit: number,
    leaseMs: number,
    fairness: ClaimFairness,
  ): Promise<ClaimedDelivery[]> {
    const rows = await queryRows<ClaimRow>(
      this.dataSource,
      `WITH open_endpoints AS (
         SELECT w.id, w.organization_id,
                (CASE WHEN w.timeouts_in_row >= $5 THEN 1 ELSE $6 END) - (
                  SELECT count(*) FROM webhook_deliveries f
                   WHERE f.endpoint_id = w.id AND f.status = 'pending'
                     AND f.lease_owner IS NOT NULL AND f.lease_expires_at >= $2)::int AS room
           FROM webhook_endpoints w
          WHERE w.enabled AND (w.circuit_open_until IS NULL OR w.circuit_open_until <= $2)
            AND EXISTS (SELECT 1 FROM webhook_deliveries x
                         WHERE x.endpoint_id = w.id AND x.status = 'pending'
                           AND x.next_attempt_at <= $2)
       ),
       candidates AS (
         SELECT c.id, c.next_attempt_at, e.organization_id,
                row_number() OVER (PARTITION BY e.id ORDER BY c.next_attempt_at, c.id) AS endpoint_turn
           FROM open_endpoints e
           CROSS JOIN LATERAL (
             SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
              WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= $2
                AND (d.lease_expires_at IS NULL OR d.lease_expires_at < $2)
              ORDER BY d.next_attempt_at, d.id
              LIMIT greatest(e.room, 0)) c
       ),
       turns AS (
         SELECT id, next_attempt_at,
                row_number() OVER (PARTITION BY organization_id
                                   ORDER BY endpoint_turn, next_attempt_at, id) AS turn
           FROM candidates
       ),
       due AS (
         SELECT d.id FROM webhook_deliveries d JOIN turns t ON t.id = d.id
          WHERE d.status = 'pending' AND (d.lease_expires_at IS NULL OR d.lease_expires_at < $2)
          ORDER BY t.turn, t.next_attempt_at, d.id
          LIMIT $3
          FOR UPDATE OF d SKIP LOCKED
       )
       UPDATE webhook_deliveries d
          SET lease_owner = $1, lease_expires_at = $2::timestamptz + $4::float8 * interval '1 millisecond'
         FROM due, webhook_endpoints w, events e
        WHERE d.id = due.id AND w.id = d.endpoint_id AND e.id = d.event_id
       RETURNING d.id, d.attempts, d.created_at, d.endpoint_id, w.organization_id, w.url,
                 w.livemode, w.secret_ciphertext, w.previous_secret_ciphertext,
                 w.previous_secret_expires_at,
                 (w.failing_since IS NULL AND w.timeouts_in_row = 0) AS endpoint_healthy,
                 e.id AS event_id, e.type AS event_type, e.created_at AS event_created_at, e.data`,
      [owner, now, limit, leaseMs, fairness.probeAfterTimeouts, fairness.perEndpoint],
    );
    return rows.map((row) => ({
      id: row.id,
      attempts: row.attempts,
      createdAt: row.created_at,
      endpointId: row.endpoint_id,
      organizationId: row.organization_id,
      url: row.url,
      livemode: row.livemode,
      secretCiphertext: row.secret_ciphertext,
      previousSecretCiphertext: row.previous_secret_ciphertext,
      previousSecretExpiresAt: row.previous_secret_expires_at,
      endpointHealthy: row.endpoint_healthy,
      event: {
        id: row.event_id,
        type: row.event_type,
        createdAt: row.event_created_at.toISOString(),
        livemode: row.livemode,
        data: row.data,
      },
    }));
  }

  /**
   * Writes one attempt and what it decided, and gives the lease back, if `owner` still holds
   * it: a poller whose lease was taken over writes nothing. Answers whether it was written.
   */
  async recordAttempt(
    owner: string,
    delivery: ClaimedDelivery,
    now: Date,
    outcome: AttemptOutcome,
  ): Promise<boolean> {
    // One statement, so one round trip: the delivery's update and its attempt commit together.
    const written = await queryRows<{ attempt: number }>(
      this.dataSource,
      `WITH updated AS (
         UPDATE webhook_deliveries
            SET attempts = attempts + 1, status = $3::text,
                next_attempt_at = coalesce($4, next_attempt_at),
                finished_at = CASE WHEN $3::text = 'pending' THEN NULL ELSE $5::timestamptz END,
                lease_owner = NULL, lease_expires_at = NULL
          WHERE id = $1 AND lease_owner = $2
          RETURNING attempts)
       INSERT INTO webhook_attempts
         (delivery_id, endpoint_id, event_id, attempt, http_status, error, duration_ms, created_at)
       SELECT $1::bigint, $6::text, $7::text, attempts, $8::int, $9::text, $10::int, $5::timestamptz
         FROM updated
       RETURNING attempt`,
      [
        delivery.id,
        owner,
        outcome.status,
        outcome.nextAttemptAt,
        now,
        delivery.endpointId,
        delivery.event.id,
        outcome.httpStatus,
        outcome.error,
        outcome.durationMs,
      ],
    );
    return written.length > 0;
  }

  /** Every lease `owner` holds (on shutdown): the deliveries are due again for the others. */
  async releaseLeases(owner: string): Promise<number> {
    const rows = await queryRows(
      this.dataSource,
      `UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL
          WHERE lease_owner = $1 AND status = 'pending' RETURNING id`,
      [owner],
    );
    return rows.length;
  }

  /** The endpoint's latest attempts, newest first. */
  async latestAttempts(endpointId: string, limit: number): Promise<AttemptRecord[]> {
    const rows = await queryRows<AttemptSqlRow>(
      this.dataSource,
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
    return queryRows<SwapDeliveryView>(
      this.dataSource,
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
    const rows = await queryRows<AttemptSqlRow & { id: string }>(
      this.dataSource,
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
    const rows = await queryRows<{ id: string; created: boolean }>(
      this.dataSource,
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
    const rows = await queryRows<{
      id: string;
      endpoint_id: string;
      url: string;
      status: WebhookDeliveryStatus;
      attempts: number;
      next_attempt_at: Date;
      created_at: Date;
      finished_at: Date | null;
      resent_by: string | null;
      http_status: number | null;
      error: string | null;
    }>(
      this.dataSource,
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

  /**
   * Pending deliveries of enabled endpoints, how long the oldest has waited, and the same age
   * per endpoint that is owed any, longest waiting first.
   */
  async backlog(now: Date): Promise<WebhookBacklog> {
    const rows = await queryRows<{ endpoint_id: string; pending: number; oldest: Date }>(
      this.dataSource,
      `SELECT d.endpoint_id, count(*)::int AS pending, min(d.created_at) AS oldest
         FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
        WHERE d.status = 'pending' AND w.enabled
        GROUP BY d.endpoint_id
        ORDER BY oldest`,
    );
    const age = (oldest: Date): number => Math.max(0, (now.getTime() - oldest.getTime()) / 1000);
    return {
      pending: rows.reduce((sum, row) => sum + row.pending, 0),
      oldestAgeSeconds: rows.length > 0 ? age(rows[0].oldest) : 0,
      endpoints: rows.map((row) => ({
        endpointId: row.endpoint_id,
        oldestAgeSeconds: age(row.oldest),
      })),
    };
  }

  /** Deletes finished deliveries (and their attempts) of events created before `before`. */
  async purgeFinishedBefore(before: Date, batch: number): Promise<number> {
    return changedRows(
      this.dataSource,
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT d.id FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
          WHERE e.created_at < $1 AND d.status <> 'pending'
          LIMIT $2)`,
      [before, batch],
    );
  }
}
