import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppError, ErrorCode } from '#app/errors';
import { PARTNER_MAX_GATE_WAIT_MS } from '#app/provider';
import { KEY_VALUE_STORE, RedisStore, type KeyValueStore } from '#app/redis';

/** Who asks for upstream capacity: partner requests wait briefly; background work yields. */
export type UpstreamPriority = 'partner' | 'background';

export const UPSTREAM_RATE_PER_SECOND = 10;
/** A little slack so clock skew and network jitter never push a second over the cap. */
const SPACING_MS = Math.ceil((1000 / UPSTREAM_RATE_PER_SECOND) * 1.05);
const BACKGROUND_POLL_MS = 50;
const BACKGROUND_MAX_WAIT_MS = 30_000;
const KEY = 'upstream:tat';

/**
 * GCRA on the Redis server clock: returns {granted, waitMs}. A granted caller owns a slot
 * `waitMs` ahead and sleeps until it; slots are spaced evenly, so no second ever holds more
 * than the cap. `maxWait` 0 means "only a slot that is free now".
 */
const RESERVE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local wait = tat - now
if wait > tonumber(ARGV[2]) then return {0, wait} end
redis.call('SET', KEYS[1], tat + tonumber(ARGV[1]), 'PX', 60000)
return {1, wait}`;

interface Reservation {
  granted: boolean;
  waitMs: number;
}

/**
 * The global upstream cap (10 calls/s across every api replica and poller, DECISIONS §3.13).
 * Without Redis each process keeps half the cap for itself.
 */
@Injectable()
export class UpstreamBudget {
  private readonly logger = new Logger(UpstreamBudget.name);
  private localTat = 0;

  constructor(@Inject(KEY_VALUE_STORE) private readonly store: KeyValueStore) {}

  /** Resolves when the caller may send one upstream call; partners get 429 past a short wait. */
  async acquire(priority: UpstreamPriority): Promise<void> {
    if (priority === 'partner') {
      const slot = await this.reserve(PARTNER_MAX_GATE_WAIT_MS);
      if (!slot.granted) {
        throw new AppError(
          ErrorCode.UpstreamRateLimited,
          'The service is at its liquidity provider request limit. Retry shortly.',
          { retryAfterMs: Math.max(1000, slot.waitMs) },
        );
      }
      await sleep(slot.waitMs);
      return;
    }
    const deadline = Date.now() + BACKGROUND_MAX_WAIT_MS;
    for (;;) {
      const slot = await this.reserve(0);
      if (slot.granted) {
        return;
      }
      if (Date.now() > deadline) {
        throw new AppError(
          ErrorCode.UpstreamRateLimited,
          'Upstream budget exhausted by partner traffic.',
        );
      }
      await sleep(BACKGROUND_POLL_MS + Math.random() * BACKGROUND_POLL_MS);
    }
  }

  private async reserve(maxWaitMs: number): Promise<Reservation> {
    if (this.store instanceof RedisStore) {
      try {
        const [granted, waitMs] = (await this.store.script(
          RESERVE_SCRIPT,
          [KEY],
          [SPACING_MS, maxWaitMs],
        )) as [number, number];
        return { granted: granted === 1, waitMs };
      } catch (error: unknown) {
        this.logger.warn(
          { err: (error as Error).message },
          'upstream budget: Redis unavailable, using a local share',
        );
      }
    }
    return this.reserveLocally(maxWaitMs);
  }

  private reserveLocally(maxWaitMs: number): Reservation {
    const now = Date.now();
    const tat = Math.max(this.localTat, now);
    const waitMs = tat - now;
    if (waitMs > maxWaitMs) {
      return { granted: false, waitMs };
    }
    this.localTat = tat + SPACING_MS * 2;
    return { granted: true, waitMs };
  }
}
