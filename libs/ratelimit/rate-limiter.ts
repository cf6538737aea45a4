import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  KEY_VALUE_STORE,
  MemoryStore,
  type KeyValueStore,
  type WindowCount,
  type WindowHit,
} from '#app/redis';
import type { RateLimitPolicy, RateLimitState } from './rate-limit.policy.js';

/** One limit to count a request against, and whose budget it spends (an IP, a credential). */
export interface LimitCheck {
  policy: RateLimitPolicy;
  subject: string;
}

const FALLBACK_LOG_INTERVAL_MS = 60_000;

/**
 * Fixed-window counters in the shared store, so every replica shares a limit. When the store
 * fails, limits fall back to this process's own counters (DECISIONS §3.13) instead of failing.
 */
@Injectable()
export class RateLimiter {
  private readonly logger = new Logger(RateLimiter.name);
  private readonly local = new MemoryStore();
  private lastFallbackLog = 0;

  constructor(@Inject(KEY_VALUE_STORE) private readonly store: KeyValueStore) {}

  /** Counts one request against every check at once: one store round trip for all of them. */
  async hitMany(checks: readonly LimitCheck[]): Promise<RateLimitState[]> {
    if (checks.length === 0) {
      return [];
    }
    const entries = checks.map((c) => ({
      key: `rl:${c.policy.name}:${c.subject}`,
      windowMs: c.policy.windowSeconds * 1000,
    }));
    const counts = await this.count(entries);
    return checks.map(({ policy }, i) => ({
      policy,
      remaining: Math.max(0, policy.limit - counts[i].count),
      resetMs: counts[i].resetMs,
      exceeded: counts[i].count > policy.limit,
    }));
  }

  private async count(entries: WindowHit[]): Promise<WindowCount[]> {
    try {
      return await this.store.hitMany(entries);
    } catch (error: unknown) {
      const now = Date.now();
      if (now - this.lastFallbackLog > FALLBACK_LOG_INTERVAL_MS) {
        this.lastFallbackLog = now;
        this.logger.warn(
          { err: (error as Error).message },
          'rate-limit store unavailable: enforcing per-process limits',
        );
      }
      return this.local.hitMany(entries);
    }
  }
}
