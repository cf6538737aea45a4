import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '#app/errors';
import { PARTNER_MAX_GATE_WAIT_MS } from '#app/rate-limit';
import { IdempotencyRepository, type Reservation } from './idempotency.repository.js';

export interface SwapCreationOptions {
  /** `PROVIDER_TIMEOUT_MS`: the longest one upstream call may take. */
  providerTimeoutMs: number;
}

export const SWAP_CREATION_OPTIONS = Symbol('SWAP_CREATION_OPTIONS');

/** Upstream calls one creation may make in a row: the lookup of a lost answer, pair limits, create. */
const MAX_UPSTREAM_CALLS_PER_CREATION = 3;
/** Database round trips and scheduling around them. */
const KEY_LOCK_MARGIN_MS = 5_000;

/**
 * How long one creation attempt holds its key: longer than the slowest run of its upstream calls
 * (each may first wait for the shared budget, then take up to the timeout), so a concurrent retry
 * can never start a second creation while the first may still reach the provider.
 */
export function keyLockMs(providerTimeoutMs: number): number {
  return (
    MAX_UPSTREAM_CALLS_PER_CREATION * (providerTimeoutMs + PARTNER_MAX_GATE_WAIT_MS) +
    KEY_LOCK_MARGIN_MS
  );
}

/**
 * How long a concurrent duplicate waits for the first request to finish (docs/decisions.md,
 * "Idempotency keys").
 */
const DUPLICATE_WAIT_MS = 10_000;
const DUPLICATE_POLL_MS = 100;

/** A key this request may create with, or the swap an earlier request created with it. */
export type Claim = Extract<Reservation, { outcome: 'acquired' | 'replay' }>;

/**
 * The Idempotency-Key of one creation: claimed in Postgres before anything goes upstream, waited
 * for while another request holds it, and after a failure either kept for the retry that must
 * settle its attempt or given back.
 */
@Injectable()
export class KeyReservations {
  constructor(
    private readonly idempotency: IdempotencyRepository,
    @Inject(SWAP_CREATION_OPTIONS) private readonly options: SwapCreationOptions,
  ) {}

  /**
   * Claims the key, waiting up to 10 s for a request still holding it; refuses a key used with
   * another body (409 `idempotency_key_mismatch`) or still held after the wait (409
   * `idempotency_key_in_use`).
   */
  async claim(credentialId: string, key: string, fingerprint: string): Promise<Claim> {
    const deadline = Date.now() + DUPLICATE_WAIT_MS;
    for (;;) {
      const reservation = await this.idempotency.reserve(
        credentialId,
        key,
        fingerprint,
        keyLockMs(this.options.providerTimeoutMs),
      );
      switch (reservation.outcome) {
        case 'acquired':
        case 'replay':
          return reservation;
        case 'mismatch':
          throw new AppError(
            ErrorCode.IdempotencyKeyMismatch,
            'This Idempotency-Key was used with a different request body. Use a new key.',
            { param: 'Idempotency-Key' },
          );
        case 'busy':
          if (Date.now() >= deadline) {
            throw new AppError(
              ErrorCode.IdempotencyKeyInUse,
              'A request with this Idempotency-Key is still in progress. Retry shortly with the same key.',
              { param: 'Idempotency-Key' },
            );
          }
          await sleep(DUPLICATE_POLL_MS);
      }
    }
  }

  /**
   * After a failed creation: a key holding an attempt that may have reached the provider stays,
   * unlocked, for the next retry to settle (true); any other key is given back (false).
   */
  async keepForRetry(reservationId: string): Promise<boolean> {
    if (await this.idempotency.unlockForReconciliation(reservationId)) {
      return true;
    }
    await this.idempotency.release(reservationId);
    return false;
  }
}
