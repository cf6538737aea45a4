import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { ProviderName } from '#app/domain';
import type { SwapView } from './swap.view.js';

/**
 * What was sent upstream for a key, so a lost answer can be reconciled (docs/decisions.md, "Lost
 * upstream answers").
 */
export interface UpstreamAttempt {
  /** Where the attempt was sent; absent on attempts from before routing (all at Changelly). */
  provider?: ProviderName;
  from: string;
  to: string;
  amountFrom: string;
  address: string;
  startedAt: string;
  /** Sent with the create call, so the lookup knows our transaction from anyone else's. */
  marker: string;
  /** The fixed rate the attempt spent; null for float. */
  fixedRateId: string | null;
}

/**
 * A completed key: the swap it created, the answer its creation gave (null for a key completed
 * before answers were stored), and the end of its 24 h window.
 */
export interface CompletedKey {
  swapId: string;
  response: SwapView | null;
  expiresAt: Date;
}

export type Reservation =
  | {
      outcome: 'acquired';
      id: string;
      previousAttempt: UpstreamAttempt | null;
      expiresAt: Date;
    }
  | ({ outcome: 'replay' } & CompletedKey)
  | { outcome: 'mismatch' }
  | { outcome: 'busy' };

interface KeyRow {
  id: string;
  fingerprint: string;
  state: string;
  swap_id: string | null;
  response: SwapView | null;
  upstream_attempt: UpstreamAttempt | null;
  expires_at: Date;
  expired: boolean;
  locked: boolean;
}

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Postgres is the source of truth for idempotency: a unique (credential, key) row is claimed
 * before anything goes upstream, so no flush of Redis or crash can create a duplicate. The only
 * writer of `idempotency_keys`; plain SQL, since claims need `ON CONFLICT` and `FOR UPDATE`.
 */
@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Claims the key for one creation attempt, or says why this request may not create. */
  async reserve(
    credentialId: string,
    key: string,
    fingerprint: string,
    lockMs: number,
  ): Promise<Reservation> {
    const settled = await this.completed(credentialId, key, fingerprint);
    if (settled) {
      return settled;
    }
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const inserted = await this.insert(credentialId, key, fingerprint, lockMs);
      if (inserted) {
        return { outcome: 'acquired', ...inserted, previousAttempt: null };
      }
      const decided = await this.dataSource.transaction((manager) =>
        this.decideExisting(manager, credentialId, key, fingerprint, lockMs),
      );
      if (decided) {
        return decided;
      }
    }
    return { outcome: 'busy' };
  }

  /** Retries are the common case: one plain read answers them without any lock. */
  private async completed(
    credentialId: string,
    key: string,
    fingerprint: string,
  ): Promise<Reservation | null> {
    const rows = await this.dataSource.query<
      Pick<KeyRow, 'swap_id' | 'fingerprint' | 'response' | 'expires_at'>[]
    >(
      `SELECT swap_id, fingerprint, response, expires_at FROM idempotency_keys
        WHERE credential_id = $1 AND key = $2 AND state = 'completed' AND expires_at > now()`,
      [credentialId, key],
    );
    const row = rows[0];
    if (!row?.swap_id) {
      return null;
    }
    return row.fingerprint === fingerprint ? replayOf(row.swap_id, row) : { outcome: 'mismatch' };
  }

  async recordAttempt(id: string, attempt: UpstreamAttempt): Promise<void> {
    await this.dataSource.query(`UPDATE idempotency_keys SET upstream_attempt = $2 WHERE id = $1`, [
      id,
      attempt,
    ]);
  }

  /** Completes the key with the swap it created and the answer that creation gives. */
  async complete(manager: EntityManager, id: string, response: SwapView): Promise<void> {
    await manager.query(
      `UPDATE idempotency_keys
          SET state = 'completed', swap_id = $2, response = $3, locked_until = NULL
        WHERE id = $1`,
      [id, response.id, response],
    );
  }

  /** A failed attempt gives the key back: the next request with it starts afresh. */
  async release(id: string): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM idempotency_keys WHERE id = $1 AND state = 'pending'`,
      [id],
    );
  }

  /** A lookup or the provider proved the attempt created nothing: the key may create afresh. */
  async clearAttempt(id: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE idempotency_keys SET upstream_attempt = NULL WHERE id = $1`,
      [id],
    );
  }

  /**
   * When the key holds an attempt that may have reached the provider, keeps it and unlocks the
   * key for the next retry to reconcile; returns whether it did.
   */
  async unlockForReconciliation(id: string): Promise<boolean> {
    const rows = await this.dataSource.query<[unknown[], number] | unknown[]>(
      `UPDATE idempotency_keys SET locked_until = 'epoch'
        WHERE id = $1 AND state = 'pending' AND upstream_attempt IS NOT NULL
        RETURNING id`,
      [id],
    );
    const updated = Array.isArray(rows[0]) ? rows[0] : rows;
    return updated.length > 0;
  }

  /** Keys past their 24 h window (housekeeping); returns how many were deleted. */
  async purgeExpired(): Promise<number> {
    const [, deleted] = await this.dataSource.query<[unknown, number]>(
      `DELETE FROM idempotency_keys WHERE expires_at < now()`,
    );
    return deleted;
  }

  private async insert(
    credentialId: string,
    key: string,
    fingerprint: string,
    lockMs: number,
  ): Promise<{ id: string; expiresAt: Date } | null> {
    const rows = await this.dataSource.query<Pick<KeyRow, 'id' | 'expires_at'>[]>(
      `INSERT INTO idempotency_keys (credential_id, key, fingerprint, state, locked_until, expires_at)
       VALUES ($1, $2, $3, 'pending', now() + $4 * interval '1 millisecond', now() + $5 * interval '1 millisecond')
       ON CONFLICT (credential_id, key) DO NOTHING
       RETURNING id, expires_at`,
      [credentialId, key, fingerprint, lockMs, IDEMPOTENCY_WINDOW_MS],
    );
    const row = rows[0];
    return row ? { id: row.id, expiresAt: row.expires_at } : null;
  }

  private async decideExisting(
    manager: EntityManager,
    credentialId: string,
    key: string,
    fingerprint: string,
    lockMs: number,
  ): Promise<Reservation | null> {
    const rows = await manager.query<KeyRow[]>(
      `SELECT id, fingerprint, state, swap_id, response, upstream_attempt, expires_at,
              expires_at <= now() AS expired, coalesce(locked_until > now(), false) AS locked
         FROM idempotency_keys WHERE credential_id = $1 AND key = $2 FOR UPDATE`,
      [credentialId, key],
    );
    const row = rows[0];
    if (!row) {
      return null;
    }
    const relock = `locked_until = now() + $2 * interval '1 millisecond'`;
    if (row.expired) {
      const renewed = await manager.query<[Pick<KeyRow, 'expires_at'>[], number]>(
        `UPDATE idempotency_keys SET fingerprint = $3, state = 'pending', swap_id = NULL,
           response = NULL, upstream_attempt = NULL, created_at = now(), ${relock},
           expires_at = now() + $4 * interval '1 millisecond' WHERE id = $1
         RETURNING expires_at`,
        [row.id, lockMs, fingerprint, IDEMPOTENCY_WINDOW_MS],
      );
      const expiresAt = renewed[0][0].expires_at;
      return { outcome: 'acquired', id: row.id, previousAttempt: null, expiresAt };
    }
    if (row.fingerprint !== fingerprint) {
      return { outcome: 'mismatch' };
    }
    if (row.state === 'completed' && row.swap_id) {
      return replayOf(row.swap_id, row);
    }
    if (row.locked) {
      return { outcome: 'busy' };
    }
    await manager.query(`UPDATE idempotency_keys SET ${relock} WHERE id = $1`, [row.id, lockMs]);
    return {
      outcome: 'acquired',
      id: row.id,
      previousAttempt: row.upstream_attempt,
      expiresAt: row.expires_at,
    };
  }
}

function replayOf(swapId: string, row: Pick<KeyRow, 'response' | 'expires_at'>): Reservation {
  return {
    outcome: 'replay',
    swapId,
    response: row.response,
    expiresAt: row.expires_at,
  };
}
