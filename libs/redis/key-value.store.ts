/** Result of asking one sliding window to admit a hit. */
export interface WindowCount {
  /** The window's count with this hit: over the limit means refused, and then not counted. */
  count: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

/** One counter to bump: its key, the length of its window and how many hits it admits. */
export interface WindowHit {
  key: string;
  windowMs: number;
  limit: number;
}

/** What the attempt logs answer to one attempt (`KeyValueStore.admitAttempt`). */
export interface AttemptAdmission {
  admitted: boolean;
  /** When refused, ms until every full log has room again; 0 when admitted. */
  retryAfterMs: number;
}

export type StoreHealth = 'up' | 'down' | 'in_process';

/** The answer to a request for one evenly spaced slot. */
export interface SlotReservation {
  granted: boolean;
  /**
   * How long until the slot (granted), the next free slot (refused), or the first of the share's
   * held slots to start (refused because the share is full).
   */
  waitMs: number;
  /** Refused because the share already holds its most slots ahead. */
  shareFull?: boolean;
}

/** What else a slot reservation honours. */
export interface SlotOptions {
  /**
   * No slot starts sooner than this many ms from now: slots another coordinator granted may
   * still be ahead. Kept even when the reservation is refused.
   */
  notBeforeMs?: number;
  /**
   * A share of the slots (one organization's): at most `max` of its granted slots may be waiting
   * to start at once, counted across every process that shares the store.
   */
  share?: { key: string; max: number };
}

/**
 * The shared, expiring state the service keeps outside Postgres: caches, counters, fan-out. Backed
 * by Redis in production; by process memory in the embedded start (docs/decisions.md, "Embedded
 * start").
 */
export interface KeyValueStore {
  readonly kind: 'redis' | 'memory';
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  del(key: string): Promise<void>;
  /**
   * Sets the key to `value` for `ttlMs` when it holds nothing, atomically; answers what the key
   * holds afterwards (`value` when this call set it, else what another had put there).
   */
  claim(key: string, value: string, ttlMs: number): Promise<string>;
  /**
   * Adds one to the key's integer (absent counts as 0) and keeps it `ttlMs` from now; answers the
   * new value.
   */
  increment(key: string, ttlMs: number): Promise<number>;
  /** Deletes the key only while it still holds `value` (a lock given back by its own holder). */
  deleteIf(key: string, value: string): Promise<void>;
  /**
   * Admits one hit against every key, each in its own sliding window, atomically, in one round
   * trip: counted in all when every window has room for it, in none otherwise. A refused hit is
   * not counted, so a client that keeps retrying past a limit still gets the limit's worth.
   */
  hitMany(entries: readonly WindowHit[]): Promise<WindowCount[]>;
  /**
   * Exact sliding logs of attempts, one per key (its window and limit in the entry): when every
   * log holds fewer than its limit attempts younger than its window, `id` is added to each,
   * otherwise to none; atomically, in one round trip. Counted before the attempt is checked, so
   * concurrent attempts never see room that an earlier one has taken; `forgetAttempt` takes back
   * one that turned out not to count.
   */
  admitAttempt(entries: readonly WindowHit[], id: string): Promise<AttemptAdmission>;
  /** Takes `id` out of every key's attempt log. */
  forgetAttempt(keys: readonly string[], id: string): Promise<void>;
  /**
   * GCRA on the store's clock: slots `spacingMs` apart, so no window of any length holds more
   * than its share. Takes the next free slot when it starts within `maxWaitMs` (0: only one that
   * is free now); the caller waits `waitMs` before using it.
   */
  reserveSlot(
    key: string,
    spacingMs: number,
    maxWaitMs: number,
    options?: SlotOptions,
  ): Promise<SlotReservation>;
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, handler: (message: string) => void): Promise<void>;
  health(timeoutMs: number): Promise<StoreHealth>;
  close(): Promise<void>;
}

export const KEY_VALUE_STORE = Symbol('KEY_VALUE_STORE');
