import { EventEmitter } from 'node:events';
import {
  AttemptAdmission,
  KeyValueStore,
  SlotOptions,
  SlotReservation,
  StoreHealth,
  WindowCount,
  WindowHit,
} from './key-value.store.js';

interface Entry {
  value: string;
  expiresAt: number;
}

interface AttemptEntry {
  id: string;
  at: number;
}

/** Single-process stand-in for Redis (embedded start only). */
export class MemoryStore implements KeyValueStore {
  readonly kind = 'memory' as const;
  private readonly entries = new Map<string, Entry>();
  private readonly bus = new EventEmitter();
  /** Start times of each share's granted slots (`reserveSlot`), pruned as they pass. */
  private readonly shares = new Map<string, number[]>();
  /** Each attempt log (`admitAttempt`): its window and its attempts, oldest first. */
  private readonly logs = new Map<string, { windowMs: number; attempts: AttemptEntry[] }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor() {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  get(key: string): Promise<string | null> {
    return Promise.resolve(this.live(key)?.value ?? null);
  }

  set(key: string, value: string, ttlMs: number): Promise<void> {
    this.entries.set(key, { value, expiresAt: Date.now() + ttlMs });
    return Promise.resolve();
  }

  del(key: string): Promise<void> {
    this.entries.delete(key);
    return Promise.resolve();
  }

  claim(key: string, value: string, ttlMs: number): Promise<string> {
    const held = this.live(key)?.value;
    if (held !== undefined) {
      return Promise.resolve(held);
    }
    this.entries.set(key, { value, expiresAt: Date.now() + ttlMs });
    return Promise.resolve(value);
  }

  increment(key: string, ttlMs: number): Promise<number> {
    const next = Number(this.live(key)?.value ?? '0') + 1;
    this.entries.set(key, { value: String(next), expiresAt: Date.now() + ttlMs });
    return Promise.resolve(next);
  }

  deleteIf(key: string, value: string): Promise<void> {
    if (this.live(key)?.value === value) {
      this.entries.delete(key);
    }
    return Promise.resolve();
  }

  /** The same sliding windows as the Redis script: counted in all or, when refused, in none. */
  hitMany(entries: readonly WindowHit[]): Promise<WindowCount[]> {
    const now = Date.now();
    const added = new Map<string, number>();
    const windows = entries.map((e) => {
      const index = Math.floor(now / e.windowMs);
      const elapsed = now - index * e.windowMs;
      const bucket = `${e.key}:${index}`;
      // A key named twice in one call counts twice, as the script's sequential reads do.
      added.set(bucket, (added.get(bucket) ?? 0) + 1);
      const current = Number(this.live(bucket)?.value ?? '0') + added.get(bucket)!;
      const previous = Number(this.live(`${e.key}:${index - 1}`)?.value ?? '0');
      return {
        bucket,
        expiresAt: (index + 2) * e.windowMs,
        count: Math.ceil((previous * (e.windowMs - elapsed)) / e.windowMs) + current,
        limit: e.limit,
        resetMs: e.windowMs - elapsed,
      };
    });
    if (windows.every((w) => w.count <= w.limit)) {
      for (const w of windows) {
        const value = Number(this.live(w.bucket)?.value ?? '0') + 1;
        this.entries.set(w.bucket, { value: String(value), expiresAt: w.expiresAt });
      }
    }
    return Promise.resolve(windows.map((w) => ({ count: w.count, resetMs: w.resetMs })));
  }

  /** The same exact logs as the Redis script, on this process's clock. */
  admitAttempt(entries: readonly WindowHit[], id: string): Promise<AttemptAdmission> {
    const now = Date.now();
    let full = false;
    let retryAfterMs = 0;
    const logs = entries.map((e) => {
      const attempts = (this.logs.get(e.key)?.attempts ?? []).filter(
        (a) => a.at > now - e.windowMs,
      );
      const log = { windowMs: e.windowMs, attempts };
      this.logs.set(e.key, log);
      if (attempts.length >= e.limit) {
        full = true;
        const leaving = attempts[attempts.length - e.limit];
        retryAfterMs = Math.max(retryAfterMs, leaving ? leaving.at + e.windowMs - now : e.windowMs);
      }
      return log;
    });
    if (full) {
      return Promise.resolve({ admitted: false, retryAfterMs });
    }
    for (const log of logs) {
      log.attempts.push({ id, at: now });
    }
    return Promise.resolve({ admitted: true, retryAfterMs: 0 });
  }

  forgetAttempt(keys: readonly string[], id: string): Promise<void> {
    for (const key of keys) {
      const log = this.logs.get(key);
      if (log) {
        log.attempts = log.attempts.filter((a) => a.id !== id);
      }
    }
    return Promise.resolve();
  }

  /** The same GCRA, floor and share as the Redis script, on this process's clock. */
  reserveSlot(
    key: string,
    spacingMs: number,
    maxWaitMs: number,
    options: SlotOptions = {},
  ): Promise<SlotReservation> {
    const now = Date.now();
    const share = options.share;
    const held = share ? (this.shares.get(share.key) ?? []).filter((due) => due > now) : [];
    if (share) {
      this.shares.set(share.key, held);
      if (held.length >= share.max) {
        return Promise.resolve({
          granted: false,
          waitMs: Math.min(...held) - now,
          shareFull: true,
        });
      }
    }
    const stored = Number(this.live(key)?.value ?? '0');
    const tat = Math.max(stored, now, now + (options.notBeforeMs ?? 0));
    const waitMs = tat - now;
    if (waitMs > maxWaitMs) {
      if (tat > stored) {
        this.entries.set(key, { value: String(tat), expiresAt: tat + 60_000 });
      }
      return Promise.resolve({ granted: false, waitMs, shareFull: false });
    }
    this.entries.set(key, { value: String(tat + spacingMs), expiresAt: tat + spacingMs + 60_000 });
    if (share) {
      held.push(tat);
    }
    return Promise.resolve({ granted: true, waitMs, shareFull: false });
  }

  publish(channel: string, message: string): Promise<void> {
    this.bus.emit(channel, message);
    return Promise.resolve();
  }

  subscribe(channel: string, handler: (message: string) => void): Promise<void> {
    this.bus.on(channel, handler);
    return Promise.resolve();
  }

  health(): Promise<StoreHealth> {
    return Promise.resolve('in_process');
  }

  close(): Promise<void> {
    clearInterval(this.sweeper);
    this.bus.removeAllListeners();
    return Promise.resolve();
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, held] of this.shares) {
      if (held.every((due) => due <= now)) {
        this.shares.delete(key);
      }
    }
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= now) {
        this.entries.delete(key);
      }
    }
    for (const [key, log] of this.logs) {
      if (log.attempts.every((a) => a.at <= now - log.windowMs)) {
        this.logs.delete(key);
      }
    }
  }
}
