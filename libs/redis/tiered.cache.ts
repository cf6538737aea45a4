import { Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { KeyValueStore } from './key-value.store.js';

export interface TieredCacheOptions {
  /** Keeps this cache's keys apart from every other user of the store. */
  namespace: string;
  /** The longest an entry stays in process; by default until its shared entry expires. */
  localTtlMs?: number;
}

/** Far more than any cache here holds: the currency list, pair limits and quotes per pair. */
const LOCAL_MAX_ENTRIES = 10_000;

/** What the shared tier holds: the value with its expiry, so every in-process copy ends with it. */
interface SharedEntry {
  expiresAt: number;
  value: unknown;
}

function isSharedEntry(value: unknown): value is SharedEntry {
  return (
    value !== null &&
    typeof value === 'object' &&
    'value' in value &&
    'expiresAt' in value &&
    typeof value.expiresAt === 'number'
  );
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * A read-through cache of JSON values in two tiers: a process-local copy in front of the shared
 * `KeyValueStore`, so hot reads skip the round trip and the parse. Concurrent misses of one key in
 * a process share one store read and one load. A store failure costs a load, never the answer.
 * An in-process copy never outlives its shared entry.
 */
export class TieredCache {
  private readonly logger = new Logger(TieredCache.name);
  private readonly local = new LRUCache<string, { value: unknown }>({ max: LOCAL_MAX_ENTRIES });
  private readonly inflight = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: KeyValueStore,
    private readonly options: TieredCacheOptions,
  ) {}

  /** The cached value of `key`, or what `load` gives, kept `ttlMs` in the store. */
  async get<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
    const local = this.local.get(key);
    if (local !== undefined) {
      return local.value as T;
    }
    const pending = this.inflight.get(key) as Promise<T> | undefined;
    if (pending !== undefined) {
      return pending;
    }
    const fetching = this.fetch(key, ttlMs, load).finally(() => this.inflight.delete(key));
    this.inflight.set(key, fetching);
    return fetching;
  }

  private async fetch<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
    const sharedKey = `cache:${this.options.namespace}:${key}`;
    const shared = await this.read(sharedKey);
    if (shared !== null) {
      return this.keepLocally(key, shared.value as T, shared.expiresAt);
    }
    const value = await load();
    const expiresAt = Date.now() + ttlMs;
    this.keepLocally(key, value, expiresAt);
    try {
      await this.store.set(sharedKey, JSON.stringify({ expiresAt, value }), ttlMs);
    } catch (error: unknown) {
      this.logger.warn({ key: sharedKey, err: errorText(error) }, 'shared cache write failed');
    }
    return value;
  }

  private async read(sharedKey: string): Promise<SharedEntry | null> {
    try {
      const text = await this.store.get(sharedKey);
      if (text === null) {
        return null;
      }
      const entry: unknown = JSON.parse(text);
      return isSharedEntry(entry) && entry.expiresAt > Date.now() ? entry : null;
    } catch (error: unknown) {
      this.logger.warn({ key: sharedKey, err: errorText(error) }, 'shared cache read failed');
      return null;
    }
  }

  private keepLocally<T>(key: string, value: T, sharedExpiresAt: number): T {
    const untilShared = sharedExpiresAt - Date.now();
    const ttl = Math.floor(Math.min(untilShared, this.options.localTtlMs ?? untilShared));
    if (ttl > 0) {
      this.local.set(key, { value }, { ttl });
    }
    return value;
  }
}
