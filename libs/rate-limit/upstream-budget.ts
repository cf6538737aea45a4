import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import { AppError, ErrorCode } from '#app/errors';
import { PARTNER_MAX_GATE_WAIT_MS, waitsForBudget } from './upstream-gate.js';
import { MemoryStore, type KeyValueStore, type SlotReservation } from '#app/redis';
import type {
  PostgresSlotReservation,
  UpstreamSlotsRepository,
} from './upstream-slots.repository.js';

/** Who asks for upstream capacity: partner requests wait briefly; background work yields. */
export type UpstreamPriority = 'partner' | 'background';

/** Changelly's cap, every budget's unless it names its own. */
export const UPSTREAM_RATE_PER_SECOND = 10;

/** The spacing of slots under a cap, with a little slack so clock skew and network jitter never push a second over it. */
function spacingMs(ratePerSecond: number): number {
  return Math.ceil((1000 / ratePerSecond) * 1.1);
}
/**
 * Slots one organization may hold ahead in this process's queue. Its further calls wait for one
 * of those to pass, so a burst from one partner never stands in front of another's next call by
 * more than a few slots, while a partner alone still gets the whole cap.
 */
const SLOTS_HELD_PER_ORGANIZATION = 3;
const HELD_POLL_MS = 20;
/**
 * Under `withoutWaitingForBudget`, a slot "free now" is one that starts within this: a few slots
 * of Changelly's spacing, so a budget that merely spaced the catalogue reads of the same request
 * is not taken for a spent one.
 */
const SLOT_NOW_TOLERANCE_MS = 250;
/** With neither Redis nor Postgres reachable, a process spaces its calls this much further. */
const LOCAL_SHARE_DIVISOR = 2;
/**
 * A caller that wakes this long after its slot gives the slot up and takes a new one: sent late,
 * its call would land right before the next slot's and bunch a second above the cap.
 */
const LATE_TOLERANCE_MS = 40;
/**
 * The furthest ahead any coordinator grants a slot: a partner waits at most 2.5 s for one. When
 * this process switches coordinator, its first reservation on the new one starts no sooner:
 * slots the old one granted (to any replica) may still be due until then.
 */
function grantHorizonMs(spacing: number): number {
  return PARTNER_MAX_GATE_WAIT_MS + spacing;
}
/**
 * Replicas coordinating through Postgres move back to the store together, this long after the
 * first of them finds it again: each replica's Redis connection comes back at its own moment
 * (reconnects back off up to 2 s, and connecting may take 2 s more), and one on the store while
 * another is still on Postgres would let both coordinators grant the whole cap.
 */
const HANDOVER_MS = 5000;
/** How long a replica on Postgres waits for the store's answer to a ping, and how often it asks. */
const STORE_PROBE_MS = 250;
const STORE_PROBE_INTERVAL_MS = 1000;
const BACKGROUND_MAX_POLL_MS = 500;
const BACKGROUND_JITTER_MS = 10;
const BACKGROUND_MAX_WAIT_MS = 30_000;
const FALLBACK_LOG_INTERVAL_MS = 60_000;

type Coordinator = 'store' | 'postgres' | 'local';

/**
 * One shared upstream budget (docs/decisions.md, "The upstream budget"): 10 calls/s across every
 * api replica and poller, evenly spaced slots (GCRA), at most a few of them held ahead by any one
 * organization. Slots are kept in the shared store (Redis); while it is unreachable, in Postgres,
 * which every replica also shares, so the cap holds whatever the number of replicas. Only with both
 * out of reach does a process fall back to a local share.
 */
export class UpstreamBudget {
  private readonly logger = new Logger(UpstreamBudget.name);
  private readonly local = new MemoryStore();
  private readonly held = new HeldSlots();
  private lastFallbackLog = 0;
  /** The coordinator of this process's last reservation; none before the first. */
  private coordinator: Coordinator | null = null;
  /** While on Postgres: until when (performance clock) every replica stays there. */
  private handoverUntil = 0;
  /** While on Postgres: when (performance clock) the store last failed to answer a ping. */
  private storeDownAt = Number.NEGATIVE_INFINITY;

  private readonly spacingMs: number;

  /**
   * @param name the budget's own keys (a provider and a mode): budgets never spend each other's
   *   slots.
   * @param ratePerSecond the provider's cap across every replica and poller.
   * @param handoverMs how long after the first replica on Postgres finds the store again every
   *   replica moves back to it (5 s: each one's connection comes back at its own moment).
   */
  constructor(
    private readonly name: string,
    private readonly store: KeyValueStore,
    private readonly slots: UpstreamSlotsRepository,
    ratePerSecond = UPSTREAM_RATE_PER_SECOND,
    private readonly handoverMs = HANDOVER_MS,
  ) {
    this.spacingMs = spacingMs(ratePerSecond);
  }

  /**
   * Resolves when the caller may send one upstream call. Partners wait up to 2.5 s for a slot
   * (and, past three slots held by their organization, for one of those to pass), then get 429
   * (under `withoutWaitingForBudget`, they take only a slot free now, within 250 ms);
   * background work only takes slots that are free now, so queued partner calls always go first.
   */
  async acquire(priority: UpstreamPriority, organizationId?: string): Promise<void> {
    if (priority === 'background') {
      await this.acquireSpare();
      return;
    }
    const deadline =
      performance.now() + (waitsForBudget() ? PARTNER_MAX_GATE_WAIT_MS : SLOT_NOW_TOLERANCE_MS);
    for (;;) {
      const now = performance.now();
      if (
        organizationId !== undefined &&
        this.held.count(organizationId, now) >= SLOTS_HELD_PER_ORGANIZATION
      ) {
        if (now >= deadline) {
          throw limitReached(HELD_POLL_MS);
        }
        await sleep(HELD_POLL_MS);
        continue;
      }
      // Held from before the reservation, so concurrent calls of one organization count it.
      const held = organizationId === undefined ? null : this.held.take(organizationId);
      const slot = await this.reserve(
        `upstream:${this.name}`,
        this.spacingMs,
        Math.max(0, deadline - now),
        organizationId,
      ).catch((error: unknown) => {
        held?.release();
        throw error;
      });
      if (!slot.granted) {
        held?.release();
        if ((slot.shareFull === true || slot.handedOver === true) && now < deadline) {
          // The organization holds its share across replicas, or the replicas are moving back to
          // the store: wait for one of those slots to start, or try the store.
          await sleep(Math.max(1, Math.min(slot.waitMs, HELD_POLL_MS)));
          continue;
        }
        throw limitReached(slot.waitMs);
      }
      const due = now + slot.waitMs;
      held?.startsAt(due);
      await sleep(slot.waitMs);
      if (performance.now() - due <= LATE_TOLERANCE_MS) {
        return;
      }
    }
  }

  private async acquireSpare(): Promise<void> {
    const deadline = Date.now() + BACKGROUND_MAX_WAIT_MS;
    for (;;) {
      const askedAt = performance.now();
      const slot = await this.reserve(`upstream:${this.name}`, this.spacingMs, 0);
      if (slot.granted && performance.now() - askedAt <= LATE_TOLERANCE_MS) {
        return;
      }
      if (Date.now() > deadline) {
        throw new AppError(
          ErrorCode.UpstreamRateLimited,
          'Upstream budget exhausted by partner traffic.',
        );
      }
      // Back when the next slot is free (partners may take it first), spread across pollers.
      await sleep(
        Math.min(slot.waitMs, BACKGROUND_MAX_POLL_MS) + Math.random() * BACKGROUND_JITTER_MS,
      );
    }
  }

  /**
   * One slot from the first coordinator that answers: the store, then Postgres, then this
   * process's share. The store also keeps the organization's share across replicas. On a switch
   * the new coordinator is first told how far ahead the old one may have granted slots: from the
   * store, at most the grant horizon; from Postgres, its own horizon, read on the way back.
   */
  private async reserve(
    key: string,
    spacingMs: number,
    maxWaitMs: number,
    organizationId?: string,
  ): Promise<PostgresSlotReservation> {
    if (this.coordinator !== 'postgres' || (await this.storeTakesOver(key))) {
      try {
        return await this.reserveInStore(key, spacingMs, maxWaitMs, organizationId);
      } catch (error: unknown) {
        this.fellBack('postgres', error);
      }
    }
    try {
      const notBeforeMs = await this.horizonOutside('postgres', key);
      const slot = await this.slots.reserve(key, spacingMs, maxWaitMs, {
        notBeforeMs,
        reopen: this.coordinator !== 'postgres',
      });
      this.coordinator = 'postgres';
      if (slot.handedOver === true) {
        // The others are back on the store: this process asks it again on its next try.
        this.handoverUntil = 0;
        this.storeDownAt = Number.NEGATIVE_INFINITY;
      }
      return slot;
    } catch (error: unknown) {
      this.fellBack('local', error);
    }
    const notBeforeMs = await this.horizonOutside('local', key);
    this.coordinator = 'local';
    return this.local.reserveSlot(key, spacingMs * LOCAL_SHARE_DIVISOR, maxWaitMs, {
      notBeforeMs,
    });
  }

  /**
   * Whether this process, coordinating through Postgres, moves back to the store now: only once
   * the store answers and the handover moment every replica shares (kept in Postgres) has come.
   * Until then every replica stays on Postgres, so one coordinator grants the cap at a time.
   */
  private async storeTakesOver(key: string): Promise<boolean> {
    if (
      performance.now() < this.handoverUntil ||
      performance.now() - this.storeDownAt < STORE_PROBE_INTERVAL_MS
    ) {
      return false;
    }
    if ((await this.store.health(STORE_PROBE_MS)) === 'down') {
      this.storeDownAt = performance.now();
      return false;
    }
    const waitMs = await this.slots.beginHandover(key, this.handoverMs).catch(() => 0);
    this.handoverUntil = performance.now() + waitMs;
    return waitMs <= 0;
  }

  private async reserveInStore(
    key: string,
    spacingMs: number,
    maxWaitMs: number,
    organizationId?: string,
  ): Promise<SlotReservation> {
    const notBeforeMs = await this.horizonOutside('store', key);
    const slot = await this.store.reserveSlot(key, spacingMs, maxWaitMs, {
      notBeforeMs,
      share:
        organizationId === undefined
          ? undefined
          : { key: `${key}:held:${organizationId}`, max: SLOTS_HELD_PER_ORGANIZATION },
    });
    this.coordinator = 'store';
    return slot;
  }

  /** How far ahead slots granted by the coordinator before `next` may start (0: no switch). */
  private async horizonOutside(next: Coordinator, key: string): Promise<number> {
    if (this.coordinator === null || this.coordinator === next) {
      return 0;
    }
    if (this.coordinator === 'postgres') {
      return this.slots.horizon(key).catch(() => grantHorizonMs(this.spacingMs));
    }
    return grantHorizonMs(this.spacingMs);
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

/** The slots each organization holds in this process that have not started yet. */
class HeldSlots {
  private readonly byOrganization = new Map<string, Set<{ due: number }>>();

  count(organizationId: string, now: number): number {
    const slots = this.byOrganization.get(organizationId);
    for (const slot of slots ?? []) {
      if (slot.due <= now) {
        slots?.delete(slot);
      }
    }
    if (slots?.size === 0) {
      this.byOrganization.delete(organizationId);
    }
    return slots?.size ?? 0;
  }

  /** A slot being reserved: it counts until it starts or is released. */
  take(organizationId: string): { startsAt(due: number): void; release(): void } {
    const slot = { due: Number.POSITIVE_INFINITY };
    const slots = this.byOrganization.get(organizationId) ?? new Set();
    slots.add(slot);
    this.byOrganization.set(organizationId, slots);
    return {
      startsAt: (due) => {
        slot.due = due;
      },
      release: () => {
        slots.delete(slot);
      },
    };
  }
}

function limitReached(waitMs: number): AppError {
  return new AppError(
    ErrorCode.UpstreamRateLimited,
    'The service is at its liquidity provider request limit. Retry shortly.',
    { retryAfterMs: Math.max(1000, waitMs) },
  );
}
