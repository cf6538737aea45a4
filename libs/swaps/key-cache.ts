import { Inject, Injectable, Logger } from '@nestjs/common';
import { KEY_VALUE_STORE, type KeyValueStore } from '#app/redis';
import type { SwapView } from './swap.view.js';

/** What Redis says about one idempotency key when a request claims it. */
export type CachedKey =
  /** Completed: its body's fingerprint and the swap its creation answered. */
  | { state: 'completed'; fingerprint: string; swap: SwapView }
  /** Another request holds it, for a body with this fingerprint. */
  | { state: 'held'; fingerprint: string }
  /** This request holds it now: Postgres decides what it may do. */
  | { state: 'ours' }
  /** Redis did not answer (down, or an entry it cannot read): Postgres decides. */
  | { state: 'unknown' };

/** One request's hold on a key in Redis, for a body with `fingerprint`; given back with `release`. */
export interface KeyLock {
  credentialId: string;
  key: string;
  fingerprint: string;
  token: string;
}

interface HeldEntry {
  lock: string;
  fingerprint: string;
}

interface CompletedEntry {
  fingerprint: string;
  swap: SwapView;
}

/** A completed entry expires this much before its Postgres row, whatever the clocks' drift. */
const EXPIRY_MARGIN_MS = 60_000;
const FAILURE_LOG_INTERVAL_MS = 60_000;

/**
 * The Redis side of idempotency keys (docs/decisions.md, "Idempotency keys"): in one round trip
 * a request learns the completed key's answer (a replay then needs nothing else), that another
 * request holds the key (it waits on Redis, not on Postgres), or that it now holds the key.
 * Redis only ever saves work: whenever it lacks the key, was flushed or is down, the Postgres
 * claim decides, and no answer here lets a request create without that claim.
 */
@Injectable()
export class KeyCache {
  private readonly logger = new Logger(KeyCache.name);
  private lastFailureLog = 0;

  constructor(@Inject(KEY_VALUE_STORE) private readonly store: KeyValueStore) {}

  async claim(lock: KeyLock, lockMs: number): Promise<CachedKey> {
    const mine = heldEntry(lock);
    let held: string;
    try {
      held = await this.store.claim(entryKey(lock), mine, lockMs);
    } catch (error: unknown) {
      this.failed(error);
      return { state: 'unknown' };
    }
    if (held === mine) {
      return { state: 'ours' };
    }
    return readEntry(held);
  }

  /** Records the completed key's answer, to expire before its Postgres row does. */
  async complete(lock: KeyLock, swap: SwapView, expiresAt: Date): Promise<void> {
    const ttlMs = expiresAt.getTime() - Date.now() - EXPIRY_MARGIN_MS;
    if (ttlMs <= 0) {
      return;
    }
    const entry: CompletedEntry = { fingerprint: lock.fingerprint, swap };
    try {
      await this.store.set(entryKey(lock), JSON.stringify(entry), ttlMs);
    } catch (error: unknown) {
      this.failed(error);
    }
  }

  /** Gives the key back, if this request still holds it. */
  async release(lock: KeyLock): Promise<void> {
    try {
      await this.store.deleteIf(entryKey(lock), heldEntry(lock));
    } catch (error: unknown) {
      this.failed(error);
    }
  }

  private failed(error: unknown): void {
    const now = Date.now();
    if (now - this.lastFailureLog > FAILURE_LOG_INTERVAL_MS) {
      this.lastFailureLog = now;
      this.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'idempotency keys: Redis unavailable, Postgres decides alone',
      );
    }
  }
}

function entryKey(lock: KeyLock): string {
  return `idem:${lock.credentialId}:${lock.key}`;
}

/** The value a request's hold is stored as: its token and its body's fingerprint. */
function heldEntry(lock: KeyLock): string {
  return JSON.stringify({ lock: lock.token, fingerprint: lock.fingerprint } satisfies HeldEntry);
}

function readEntry(value: string): CachedKey {
  let entry: unknown;
  try {
    entry = JSON.parse(value);
  } catch {
    return { state: 'unknown' };
  }
  if (typeof entry !== 'object' || entry === null) {
    return { state: 'unknown' };
  }
  const { fingerprint, swap, lock } = entry as Partial<CompletedEntry & HeldEntry>;
  if (typeof fingerprint !== 'string') {
    return { state: 'unknown' };
  }
  if (typeof lock === 'string') {
    return { state: 'held', fingerprint };
  }
  return typeof swap === 'object' && swap !== null
    ? { state: 'completed', fingerprint, swap }
    : { state: 'unknown' };
}
