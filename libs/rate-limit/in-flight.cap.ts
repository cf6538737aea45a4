import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { MemoryStore, type KeyValueStore } from '#app/redis';

/** At most `max` holders of `key` at once. */
export interface InFlightLimit {
  key: string;
  max: number;
}

/** Slots held until `release` (which never throws), or until they expire. */
export interface InFlightLease {
  release(): Promise<void>;
}

const FALLBACK_LOG_INTERVAL_MS = 60_000;

/**
 * Work in flight, capped across every replica that shares the store: a holder takes one of each
 * limit's `max` slots (a key claimed with a value of its own that expires after `leaseMs`, so the
 * slots of a replica that dies free themselves), all or none. When the store fails, this process's
 * own slots stand in, as the request limits fall back (docs/decisions.md, "Rate limits on
 * @nestjs/throttler").
 */
export class SharedInFlightCap {
  private readonly logger = new Logger(SharedInFlightCap.name);
  private readonly local = new MemoryStore();
  private lastFallbackLog = 0;

  constructor(
    private readonly store: KeyValueStore,
    private readonly leaseMs: number,
  ) {}

  /** A lease on a slot of every limit, or null when one of them has none free. */
  async acquire(limits: readonly InFlightLimit[]): Promise<InFlightLease | null> {
    try {
      return await this.acquireIn(this.store, limits);
    } catch (error: unknown) {
      const now = Date.now();
      if (now - this.lastFallbackLog > FALLBACK_LOG_INTERVAL_MS) {
        this.lastFallbackLog = now;
        this.logger.warn(
          { err: (error as Error).message },
          'in-flight cap store unavailable: enforcing per-process caps',
        );
      }
      return this.acquireIn(this.local, limits);
    }
  }

  private async acquireIn(
    store: KeyValueStore,
    limits: readonly InFlightLimit[],
  ): Promise<InFlightLease | null> {
    const token = randomUUID();
    const held: string[] = [];
    const release = (): Promise<void> => this.release(store, held, token);
    try {
      for (const limit of limits) {
        const slot = await this.claimOne(store, limit, token);
        if (slot === null) {
          await release();
          return null;
        }
        held.push(slot);
      }
    } catch (error: unknown) {
      await release();
      throw error;
    }
    return { release };
  }

  private async claimOne(
    store: KeyValueStore,
    limit: InFlightLimit,
    token: string,
  ): Promise<string | null> {
    for (let i = 0; i < limit.max; i += 1) {
      const slot = `inflight:${limit.key}:${i}`;
      if ((await store.claim(slot, token, this.leaseMs)) === token) {
        return slot;
      }
    }
    return null;
  }

  /** Gives the slots back; one the store cannot take back now expires with its lease. */
  private async release(
    store: KeyValueStore,
    slots: readonly string[],
    token: string,
  ): Promise<void> {
    try {
      await Promise.all(slots.map((slot) => store.deleteIf(slot, token)));
    } catch (error: unknown) {
      this.logger.warn(
        { err: (error as Error).message },
        'in-flight slots not given back: they expire with their lease',
      );
    }
  }
}
