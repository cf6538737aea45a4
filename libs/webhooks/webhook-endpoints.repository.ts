import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { OwnerScope } from '#app/domain';
import { resealOrNull, type CredentialCipher, type ResealCount } from '#app/partners';
import { EntityColumns, queryRows, WebhookEndpointEntity } from '#app/persistence';

/**
 * At most this many endpoints per organization and mode (docs/decisions.md, "Webhook endpoint
 * limits and pings").
 */
export const MAX_ENDPOINTS_PER_MODE = 10;

/** What a partner may change of an endpoint; an absent field stays as it is. */
export interface EndpointPatch {
  url?: string;
  events?: string[];
  description?: string | null;
  enabled?: boolean;
}

/** An endpoint and how its deliveries are doing, for the operator. */
export interface EndpointHealth {
  endpoint: WebhookEndpointEntity;
  pending: number;
  failed: number;
  delivered: number;
  lastAttemptAt: Date | null;
  lastAttemptStatus: number | null;
  lastAttemptError: string | null;
}

/** When an endpoint that keeps timing out stops being sent to for a while. */
export interface EndpointCircuit {
  /** Timeouts in a row that open the circuit. */
  timeouts: number;
  /** How long it stays open; then one probe at a time is sent until one succeeds. */
  openMs: number;
}

/** The old row's failure began at least `$3` ms before `$2` (now). */
const FAILED_LONG_ENOUGH = `coalesce(failing_since, $2::timestamptz)
  <= $2::timestamptz - $3::float8 * interval '1 millisecond'`;

/**
 * The only writer of `webhook_endpoints`. Every lookup by id takes the owner (organization and
 * mode), so another organization's or mode's endpoint reads as unknown.
 */
@Injectable()
export class WebhookEndpointsRepository {
  private readonly columns: EntityColumns<WebhookEndpointEntity>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.columns = new EntityColumns(dataSource, WebhookEndpointEntity);
  }

  /**
   * Stores the endpoint unless the owner has `MAX_ENDPOINTS_PER_MODE` already; the owner's
   * creations are serialized by an advisory lock, so two at once cannot both pass the count.
   */
  async insertWithinLimit(endpoint: WebhookEndpointEntity): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      await queryRows(manager, `SELECT pg_advisory_xact_lock(hashtextextended($1, 17))`, [
        `${endpoint.organizationId}:${endpoint.livemode}`,
      ]);
      const [{ count }] = await queryRows<{ count: number }>(
        manager,
        `SELECT count(*)::int AS count FROM webhook_endpoints
          WHERE organization_id = $1 AND livemode = $2`,
        [endpoint.organizationId, endpoint.livemode],
      );
      if (count >= MAX_ENDPOINTS_PER_MODE) {
        return false;
      }
      await queryRows(
        manager,
        `INSERT INTO webhook_endpoints (${this.columns.list}) VALUES (${this.columns.placeholders()})`,
        this.columns.values(endpoint),
      );
      return true;
    });
  }

  listForOwner(owner: OwnerScope): Promise<WebhookEndpointEntity[]> {
    return this.columns.read(
      this.dataSource,
      `SELECT ${this.columns.list} FROM webhook_endpoints
        WHERE organization_id = $1 AND livemode = $2 ORDER BY created_at, id`,
      [owner.organizationId, owner.livemode],
    );
  }

  findForOwner(id: string, owner: OwnerScope): Promise<WebhookEndpointEntity | null> {
    return this.columns.readOne(
      this.dataSource,
      `SELECT ${this.columns.list} FROM webhook_endpoints
        WHERE id = $1 AND organization_id = $2 AND livemode = $3`,
      [id, owner.organizationId, owner.livemode],
    );
  }

  /**
   * Applies the patch; re-enabling clears the failure record, and a new URL or a re-enabling
   * closes the circuit (it is a new receiver, or one the partner says is fixed). Null when the
   * owner has no such endpoint.
   */
  async update(
    id: string,
    owner: OwnerScope,
    patch: EndpointPatch,
  ): Promise<WebhookEndpointEntity | null> {
    return this.columns.readOne(
      this.dataSource,
      `UPDATE webhook_endpoints
            SET url = coalesce($4, url),
                events = coalesce($5::text[], events),
                description = CASE WHEN $6::boolean THEN $7 ELSE description END,
                enabled = coalesce($8, enabled),
                failing_since = CASE WHEN $8 AND NOT enabled THEN NULL ELSE failing_since END,
                disabled_at = CASE WHEN $8 THEN NULL
                                   WHEN $8 = false AND enabled THEN now() ELSE disabled_at END,
                timeouts_in_row = CASE WHEN $4 IS NOT NULL OR $8 THEN 0 ELSE timeouts_in_row END,
                circuit_open_until = CASE WHEN $4 IS NOT NULL OR $8 THEN NULL
                                          ELSE circuit_open_until END,
                updated_at = now()
          WHERE id = $1 AND organization_id = $2 AND livemode = $3
          RETURNING ${this.columns.list}`,
      [
        id,
        owner.organizationId,
        owner.livemode,
        patch.url ?? null,
        patch.events ?? null,
        patch.description !== undefined,
        patch.description ?? null,
        patch.enabled ?? null,
      ],
    );
  }

  /** Deletes the endpoint with its deliveries and attempts; false when the owner has no such endpoint. */
  async delete(id: string, owner: OwnerScope): Promise<boolean> {
    const rows = await queryRows(
      this.dataSource,
      `DELETE FROM webhook_endpoints WHERE id = $1 AND organization_id = $2 AND livemode = $3
         RETURNING id`,
      [id, owner.organizationId, owner.livemode],
    );
    return rows.length > 0;
  }

  /**
   * Makes `secretCiphertext` the signing secret; the current one keeps signing alongside until
   * `previousExpiresAt`.
   */
  async rotateSecret(
    id: string,
    owner: OwnerScope,
    secretCiphertext: string,
    previousExpiresAt: Date,
  ): Promise<WebhookEndpointEntity | null> {
    return this.columns.readOne(
      this.dataSource,
      `UPDATE webhook_endpoints
            SET previous_secret_ciphertext = secret_ciphertext,
                previous_secret_expires_at = $5,
                secret_ciphertext = $4, updated_at = now()
          WHERE id = $1 AND organization_id = $2 AND livemode = $3
          RETURNING ${this.columns.list}`,
      [id, owner.organizationId, owner.livemode, secretCiphertext, previousExpiresAt],
    );
  }

  /**
   * Re-seals every endpoint secret still sealed the former way (one key, no row bound) for its
   * endpoint, the previous one too, in one transaction; processes starting together take turns.
   * A secret that does not open (not sealed with this master key) is left as it is; its endpoint
   * is counted apart.
   */
  async resealFormer(cipher: CredentialCipher): Promise<ResealCount> {
    return this.dataSource.transaction(async (manager) => {
      await queryRows(
        manager,
        `SELECT pg_advisory_xact_lock(hashtext('reseal:webhook_endpoints'))`,
      );
      const rows = await queryRows<{
        id: string;
        secret_ciphertext: string;
        previous_secret_ciphertext: string | null;
      }>(
        manager,
        `SELECT id, secret_ciphertext, previous_secret_ciphertext FROM webhook_endpoints
          WHERE secret_ciphertext NOT LIKE 'v2.%' OR previous_secret_ciphertext NOT LIKE 'v2.%'
          FOR UPDATE`,
      );
      const count = { resealed: 0, unreadable: 0 };
      for (const row of rows) {
        const binding = { purpose: 'webhook', rowId: row.id } as const;
        const reseal = (sealed: string | null) =>
          sealed === null || !cipher.isFormer(sealed)
            ? sealed
            : resealOrNull(cipher, sealed, binding);
        const current = reseal(row.secret_ciphertext);
        const previous = reseal(row.previous_secret_ciphertext);
        if (current === null || (row.previous_secret_ciphertext !== null && previous === null)) {
          count.unreadable += 1;
          continue;
        }
        await queryRows(
          manager,
          `UPDATE webhook_endpoints SET secret_ciphertext = $2, previous_secret_ciphertext = $3
            WHERE id = $1`,
          [row.id, current, previous],
        );
        count.resealed += 1;
      }
      return count;
    });
  }

  /**
   * A delivery succeeded at `now`: the endpoint is healthy again and its circuit closed. When it
   * was failing, its backlog is due at once instead of at each delivery's backed-off retry: the
   * receiver has just shown it takes deliveries (the claim's per-endpoint room still paces them).
   */
  async markHealthy(id: string, now: Date): Promise<void> {
    await queryRows(
      this.dataSource,
      `WITH healed AS (
         UPDATE webhook_endpoints
            SET failing_since = NULL, timeouts_in_row = 0, circuit_open_until = NULL
          WHERE id = $1 AND (failing_since IS NOT NULL OR timeouts_in_row > 0)
         RETURNING id)
       UPDATE webhook_deliveries d SET next_attempt_at = $2
         FROM healed
        WHERE d.endpoint_id = healed.id AND d.status = 'pending' AND d.next_attempt_at > $2`,
      [id, now],
    );
  }

  /**
   * An attempt failed at `now`: notes when the failing started, and disables the endpoint once
   * nothing has been delivered to it for `disableAfterMs`. A timeout counts towards the circuit:
   * from `circuit.timeouts` timeouts in a row the endpoint's deliveries wait `circuit.openMs`
   * unclaimed, then one probe at a time goes until a send succeeds; any answer, even an error,
   * shows the receiver responds and resets the count. Answers whether it was disabled now.
   */
  async markFailing(
    id: string,
    now: Date,
    disableAfterMs: number,
    timedOut: boolean,
    circuit: EndpointCircuit,
  ): Promise<boolean> {
    const rows = await queryRows<{ disabled: boolean }>(
      this.dataSource,
      `UPDATE webhook_endpoints
            SET failing_since = coalesce(failing_since, $2::timestamptz),
                enabled = enabled AND NOT ${FAILED_LONG_ENOUGH},
                disabled_at = CASE WHEN enabled AND ${FAILED_LONG_ENOUGH} THEN $2 ELSE disabled_at END,
                timeouts_in_row = CASE WHEN $4 THEN timeouts_in_row + 1 ELSE 0 END,
                circuit_open_until = CASE
                  WHEN NOT $4 THEN NULL
                  WHEN timeouts_in_row + 1 >= $5
                    THEN $2::timestamptz + $6::float8 * interval '1 millisecond'
                  ELSE circuit_open_until END
          WHERE id = $1
          RETURNING (NOT enabled AND disabled_at = $2::timestamptz) AS disabled`,
      [id, now, disableAfterMs, timedOut, circuit.timeouts, circuit.openMs],
    );
    return rows[0]?.disabled ?? false;
  }

  /**
   * The endpoint's URL is one the target guard refuses (a name now resolving to a private
   * address, a policy turned strict): no retry can succeed, so it is disabled at once. Answers
   * whether this call disabled it.
   */
  async disableRefused(id: string, now: Date): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `UPDATE webhook_endpoints
            SET enabled = false, disabled_at = $2, failing_since = coalesce(failing_since, $2)
          WHERE id = $1 AND enabled
          RETURNING id`,
      [id, now],
    );
    return rows.length > 0;
  }

  /** An organization's endpoints of both modes and how their deliveries are doing. */
  async healthOfOrganization(organizationId: string): Promise<EndpointHealth[]> {
    const rows = await queryRows<
      Record<string, unknown> & {
        pending: number;
        failed: number;
        delivered: number;
        last_attempt_at: Date | null;
        last_attempt_status: number | null;
        last_attempt_error: string | null;
      }
    >(
      this.dataSource,
      `SELECT ${this.columns.list
        .split(', ')
        .map((column) => `w.${column}`)
        .join(', ')},
              coalesce(d.pending, 0)::int AS pending, coalesce(d.failed, 0)::int AS failed,
              coalesce(d.delivered, 0)::int AS delivered,
              a.created_at AS last_attempt_at, a.http_status AS last_attempt_status,
              a.error AS last_attempt_error
         FROM webhook_endpoints w
         LEFT JOIN LATERAL (
           SELECT count(*) FILTER (WHERE status = 'pending') AS pending,
                  count(*) FILTER (WHERE status = 'failed') AS failed,
                  count(*) FILTER (WHERE status = 'delivered') AS delivered
             FROM webhook_deliveries WHERE endpoint_id = w.id) d ON true
         LEFT JOIN LATERAL (
           SELECT created_at, http_status, error FROM webhook_attempts
            WHERE endpoint_id = w.id ORDER BY id DESC LIMIT 1) a ON true
        WHERE w.organization_id = $1
        ORDER BY w.livemode DESC, w.created_at, w.id`,
      [organizationId],
    );
    return rows.map((row) => ({
      endpoint: this.columns.toEntity(row),
      pending: row.pending,
      failed: row.failed,
      delivered: row.delivered,
      lastAttemptAt: row.last_attempt_at,
      lastAttemptStatus: row.last_attempt_status,
      lastAttemptError: row.last_attempt_error,
    }));
  }
}
