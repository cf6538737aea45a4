import { Logger } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { KeyValueStore, WindowCount, WindowHit } from '#app/redis';
import { PerProcessFallback } from './per-process.fallback.js';

/** One limit to count a request against: its storage key, window and allowance. */
export interface ThrottleHit {
  key: string;
  ttlMs: number;
  limit: number;
}

/** What the throttler's storage answers per hit (the package does not export the type). */
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** A storage record with the window's remaining time to the millisecond. */
export interface ThrottleRecord extends ThrottlerStorageRecord {
  resetMs: number;
}

/**
 * `@nestjs/throttler` storage over the shared store: sliding-window counters on the Redis clock, so
 * every replica shares a limit, and all of one request's limits counted in one script call. A
 * request is counted only when every limit admits it: refused requests spend nothing, so a
 * client retrying past a limit gets the limit's worth through, not nothing. When the store fails,
 * limits fall back to this process's own counters (docs/decisions.md, "Rate limits on
 * @nestjs/throttler").
 */
export class SharedThrottlerStorage implements ThrottlerStorage {
  private readonly store: PerProcessFallback;

  constructor(store: KeyValueStore) {
    this.store = new PerProcessFallback(
      store,
      new Logger(SharedThrottlerStorage.name),
      'rate-limit store unavailable: enforcing per-process limits',
    );
  }

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const [record] = await this.incrementMany([{ key, ttlMs: ttl, limit }]);
    return record;
  }

  /** Counts every hit at once: one store round trip for all of them. */
  async incrementMany(hits: readonly ThrottleHit[]): Promise<ThrottleRecord[]> {
    if (hits.length === 0) {
      return [];
    }
    const counts = await this.count(
      hits.map((h) => ({ key: `rl:${h.key}`, windowMs: h.ttlMs, limit: h.limit })),
    );
    return hits.map((hit, i) => {
      const secondsToExpire = Math.max(1, Math.ceil(counts[i].resetMs / 1000));
      const isBlocked = counts[i].count > hit.limit;
      return {
        totalHits: counts[i].count,
        timeToExpire: secondsToExpire,
        isBlocked,
        timeToBlockExpire: isBlocked ? secondsToExpire : 0,
        resetMs: counts[i].resetMs,
      };
    });
  }

  private async count(entries: WindowHit[]): Promise<WindowCount[]> {
    return (await this.store.run((store) => store.hitMany(entries))).value;
  }
}
