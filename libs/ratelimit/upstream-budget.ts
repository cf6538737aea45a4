import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import { AppError, ErrorCode } from '#app/errors';
import { PARTNER_MAX_GATE_WAIT_MS } from '#app/provider';
import { MemoryStore, type KeyValueStore, type SlotReservation } from '#app/redis';
import type { UpstreamSlotsRepository } from './upstream-slots.repository.js';

/** Who asks for upstream capacity: partner requests wait briefly; background work yields. */
export type UpstreamPriority = 'partner' | 'background';

export const UPSTREAM_RATE_PER_SECOND = 10;
/** One organization's share of the cap, so a burst from one partner costs only that partner. */
export const ORGANIZATION_RATE_PER_SECOND = 4;
/** A little slack so clock skew and network jitter never push a second over the cap. */
const SLACK = 1.05;
const SPACING_MS = Math.ceil((1000 / UPSTREAM_RATE_PER_SECOND) * SLACK);
const ORGANIZATION_SPACING_MS = Math.ceil((1000 / ORGANIZATION_RATE_PER_SECOND) * SLACK);
/** With neither Redis nor Postgres reachable, a process spaces its calls this much further. */
const LOCAL_SHARE_DIVISOR = 2;
/**
 * A caller that wakes this long after its slot gives the slot up and takes a new one: sent late,
 * its call would land right before the next slot's and bunch a second above the cap.
 */
const LATE_TOLERANCE_MS = 40;
const BACKGROUND_POLL_MS = 50;
const BACKGROUND_MAX_WAIT_MS = 30_000;
const FALLBACK_LOG_INTERVAL_MS = 60_000;

type Coordinator = 'store' | 'postgres' | 'local';

/**
 * One shared upstream budget (DECISIONS §3.13): 10 calls/s across every api replica and poller,
 * evenly spaced slots (GCRA), at most 4/s of them for any one organization. Slots are kept in
 * the shared store (Redis); while it is unreachable, in Postgres, which every replica also
 * shares, so the cap holds whatever the number of replicas. Only with both out of reach does a
 * process fall back to a local share.
 */
export class UpstreamBudget {
  private readonly logger = new Logger(UpstreamBudget.name);
  private readonly local = new MemoryStore();
  private lastFallbackLog = 0;

  /** @param name the budget's own keys (`live`, `test`): budgets never spend each other's slots. */
  constructor(
    private readonly name: string,
    private readonly store: KeyValueStore,
    private readonly slots: UpstreamSlotsRepository,
  ) {}

  /**
   * Resolves when the caller may send one upstream call. Partners wait up to 2.5 s, first for
   * their organization's share, then for a global slot, and get 429 past that; background work
   * only takes slots that are free now, so queued partner calls always go first.
   */
  async acquire(priority: UpstreamPriority, organizationId?: string): Promise<void> {
    if (priority === 'background') {
      await this.acquireSpare();
      return;
    }
    const deadline = performance.now() + PARTNER_MAX_GATE_WAIT_MS;
    if (organizationId !== undefined) {
      await this.wait(
        `upstream:${this.name}:org:${organizationId}`,
        ORGANIZATION_SPACING_MS,
        deadline,
      );
    }
    await this.wait(`upstream:${this.name}`, SPACING_MS, deadline);
  }

  /** Takes a slot that starts before `deadline` and sleeps until it; 429 when there is none. */
  private async wait(key: string, spacingMs: number, deadline: number): Promise<void> {
    for (;;) {
      const askedAt = performance.now();
      const slot = await this.reserve(key, spacingMs, Math.max(0, deadline - askedAt));
      if (!slot.granted) {
        throw limitReached(slot.waitMs);
      }
      await sleep(slot.waitMs);
      if (performance.now() - (askedAt + slot.waitMs) <= LATE_TOLERANCE_MS) {
        return;
      }
    }
  }

  private async acquireSpare(): Promise<void> {
    const deadline = Date.now() + BACKGROUND_MAX_WAIT_MS;
    for (;;) {
      const askedAt = performance.now();
      const slot = await this.reserve(`upstream:${this.name}`, SPACING_MS, 0);
      if (slot.granted && performance.now() - askedAt <= LATE_TOLERANCE_MS) {
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

  private async reserve(
    key: string,
    spacingMs: number,
    maxWaitMs: number,
  ): Promise<SlotReservation> {
    try {
      return await this.store.reserveSlot(key, spacingMs, maxWaitMs);
    } catch (error: unknown) {
      this.fellBack('postgres', error);
    }
    try {
      return await this.slots.reserve(key, spacingMs, maxWaitMs);
    } catch (error: unknown) {
      this.fellBack('local', error);
    }
    return this.local.reserveSlot(key, spacingMs * LOCAL_SHARE_DIVISOR, maxWaitMs);
  }

  private fellBack(to: Exclude<Coordinator, 'store'>, error: unknown): void {
    const now = Date.now();
    if (now - this.lastFallbackLog > FALLBACK_LOG_INTERVAL_MS) {
      this.lastFallbackLog = now;
      this.logger.warn(
        {
          budget: this.name,
          coordinator: to,
          err: error instanceof Error ? error.message : String(error),
        },
        to === 'postgres'
          ? 'upstream budget: Redis unreachable, coordinating through Postgres'
          : 'upstream budget: Redis and Postgres unreachable, using a local share',
      );
    }
  }
}

function limitReached(waitMs: number): AppError {
  return new AppError(
    ErrorCode.UpstreamRateLimited,
    'The service is at its liquidity provider request limit. Retry shortly.',
    { retryAfterMs: Math.max(1000, waitMs) },
  );
}
