import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '#app/errors';
import { PARTNER_MAX_GATE_WAIT_MS } from '#app/rate-limit';
import { IdempotencyRepository, type Reservation } from './idempotency.repository.js';
import { KeyCache, type KeyLock } from './key-cache.js';
import type { SwapView } from './swap.view.js';

export interface SwapCreationOptions {
  /** The longest one upstream call may take, of any provider. */
  providerTimeoutMs: number;
  /** How many providers a creation may be routed across (`PROVIDERS`). */
  providers: number;
}

export const SWAP_CREATION_OPTIONS = Symbol('SWAP_CREATION_OPTIONS');

/**
 * Upstream calls one creation may make in a row at one provider: the lookup of a lost answer,
 * pair limits, create; each further provider adds a quote (in parallel with the others) and a
 * create (docs/decisions.md, "Liquidity routing across providers").
 */
const UPSTREAM_CALLS_AT_ONE_PROVIDER = 3;
const UPSTREAM_CALLS_PER_FURTHER_PROVIDER = 2;
/** Database round trips and scheduling around them. */
const KEY_LOCK_MARGIN_MS = 5_000;

/**
 * How long one creation attempt holds its key: longer than the slowest run of its upstream calls
 * (each may first wait for the shared budget, then take up to the timeout), so a concurrent retry
 * can never start a second creation while the first may still reach the provider.
 */
export function keyLockMs(providerTimeoutMs: number, providers = 1): number {
  const calls =
    UPSTREAM_CALLS_AT_ONE_PROVIDER + UPSTREAM_CALLS_PER_FURTHER_PROVIDER * (providers - 1);
  return calls * (providerTimeoutMs + PARTNER_MAX_GATE_WAIT_MS) + KEY_LOCK_MARGIN_MS;
}

/**
 * How long a concurrent duplicate waits for the first request to finish (docs/decisions.md,
 * "Idempotency keys").
 */
const DUPLICATE_WAIT_MS = 10_000;
const DUPLICATE_POLL_MS = 100;

/** A key this request may create with (and its hold in Redis), or the answer of an earlier one. */
export type AcquiredKey = Extract<Reservation, { outcome: 'acquired' }> & { lock: KeyLock };
export type Claim = AcquiredKey | { outcome: 'replay'; swapId: string; response: SwapView | null };

/**
 * The Idempotency-Key of one creation: claimed in Redis, then in Postgres, before anything goes
 * upstream; waited for while another request holds it; after a failure either kept for the retry
 * that must settle its attempt or given back. A completed key is answered from Redis in one round
 * trip; whenever Redis lacks it, Postgres decides (docs/decisions.md, "Idempotency keys").
 */
@Injectable()
export class KeyReservations {
  constructor(
    private readonly idempotency: IdempotencyRepository,
    private readonly cache: KeyCache,
    @Inject(SWAP_CREATION_OPTIONS) private readonly options: SwapCreationOptions,
  ) {}

  /**
   * Claims the key, waiting up to 10 s for a request still holding it; refuses a key used with
   * another body (409 `idempotency_key_mismatch`) or still held after the wait (409
   * `idempotency_key_in_use`).
   */
  async claim(credentialId: string, key: string, fingerprint: string): Promise<Claim> {
    const lock: KeyLock = { credentialId, key, fingerprint, token: randomUUID() };
    const lockMs = keyLockMs(this.options.providerTimeoutMs, this.options.providers);
    const deadline = Date.now() + DUPLICATE_WAIT_MS;
    for (;;) {
      const cached = await this.cache.claim(lock, lockMs);
      if (cached.state === 'completed' || cached.state === 'held') {
        if (cached.fingerprint !== fingerprint) {
          throw mismatch();
        }
        if (cached.state === 'completed') {
          return { outcome: 'replay', swapId: cached.swap.id, response: cached.swap };
        }
        if (Date.now() < deadline) {
          await sleep(DUPLICATE_POLL_MS);
          continue;
        }
      }
      const reservation = await this.idempotency.reserve(credentialId, key, fingerprint, lockMs);
      if (reservation.outcome === 'acquired') {
        return { ...reservation, lock };
      }
      if (reservation.outcome === 'replay') {
        if (reservation.response) {
          await this.cache.complete(lock, reservation.response, reservation.expiresAt);
        }
        return reservation;
      }
      if (reservation.outcome === 'busy' && Date.now() < deadline) {
        await sleep(DUPLICATE_POLL_MS);
        continue;
      }
      await this.cache.release(lock);
      throw reservation.outcome === 'mismatch' ? mismatch() : inUse();
    }
  }

  /** After the creation is stored: its answer, for every retry to replay from Redis. */
  async completed(claim: AcquiredKey, swap: SwapView): Promise<void> {
    await this.cache.complete(claim.lock, swap, claim.expiresAt);
  }

  /**
   * After a failed creation: a key holding an attempt that may have reached the provider stays,
   * unlocked, for the next retry to settle (true); any other key is given back (false). Either
   * way the hold in Redis is given back, so the retry reaches Postgres at once.
   */
  async keepForRetry(claim: AcquiredKey): Promise<boolean> {
    const kept = await this.idempotency.unlockForReconciliation(claim.id);
    if (!kept) {
      await this.idempotency.release(claim.id);
    }
    await this.cache.release(claim.lock);
    return kept;
  }
}

function mismatch(): AppError {
  return new AppError(
    ErrorCode.IdempotencyKeyMismatch,
    'This Idempotency-Key was used with a different request body. Use a new key.',
    { param: 'Idempotency-Key' },
  );
}

function inUse(): AppError {
  return new AppError(
    ErrorCode.IdempotencyKeyInUse,
    'A request with this Idempotency-Key is still in progress. Retry shortly with the same key.',
    { param: 'Idempotency-Key' },
  );
}
