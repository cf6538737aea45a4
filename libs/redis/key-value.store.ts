/** Result of counting one hit in a fixed window. */
export interface WindowCount {
  count: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

/** One counter to bump: its key and the length of its window. */
export interface WindowHit {
  key: string;
  windowMs: number;
}

export type StoreHealth = 'up' | 'down' | 'in_process';

/**
 * The shared, expiring state the service keeps outside Postgres: caches, counters, fan-out.
 * Backed by Redis in production; by process memory in the embedded start (DECISIONS §2).
 */
export interface KeyValueStore {
  readonly kind: 'redis' | 'memory';
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  del(key: string): Promise<void>;
  /** Counts one hit against each key in its own sliding window, atomically, in one round trip. */
  hitMany(entries: readonly WindowHit[]): Promise<WindowCount[]>;
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, handler: (message: string) => void): Promise<void>;
  health(timeoutMs: number): Promise<StoreHealth>;
  close(): Promise<void>;
}

export const KEY_VALUE_STORE = Symbol('KEY_VALUE_STORE');
