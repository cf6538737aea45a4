import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { EVENT_TYPES, type PartnerEvent } from '#app/events';
import { checkedRows, type BatchStatement, type WebhookDeliveryStatus } from '#app/persistence';

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

/** How evenly a claim shares the sending slots between endpoints. */
export interface ClaimFairness {
  /** Sends in flight at once to one endpoint, across every poller. */
  perEndpoint: number;
  /** Timeouts in a row after which an endpoint gets one send at a time (a probe). */
  probeAfterTimeouts: number;
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

/** The columns a claim answers. */
const CLAIM_ROW = {
  id: 'string',
  attempts: 'number',
  created_at: 'date',
  endpoint_id: 'string',
  organization_id: 'string',
  url: 'string',
  livemode: 'boolean',
  secret_ciphertext: 'string',
  previous_secret_ciphertext: 'string?',
  previous_secret_expires_at: 'date?',
  endpoint_healthy: 'boolean',
  event_id: 'string',
  event_type: EVENT_TYPES,
  event_created_at: 'date',
  data: 'json',
} as const;

/**
 * The poller's side of the webhook outbox (`webhook_deliveries`) and its attempt log
 * (`webhook_attempts`): queueing, leasing, recording attempts. Deliveries are leased like swap
 * claims (`FOR UPDATE SKIP LOCKED`, an owner and an expiry): two pollers never hold one delivery
 * at once, and a dead poller's lease runs out. Times come from the caller's clock, so the retry
 * window and disabling can be tested.
 */
@Injectable()
export class WebhookDeliveryClaims {
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
    const rows = await checkedRows(
      this.dataSource,
      CLAIM_ROW,
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
        // jsonb the event recorder wrote from a PartnerEvent of this type.
        data: row.data as PartnerEvent['data'],
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
    const written = await checkedRows(
      this.dataSource,
      { attempt: 'number' },
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
    const rows = await checkedRows(
      this.dataSource,
      { id: 'string' },
      `UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL
          WHERE lease_owner = $1 AND status = 'pending' RETURNING id`,
      [owner],
    );
    return rows.length;
  }
}
