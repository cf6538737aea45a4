import { once } from 'node:events';
import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import {
  AttemptAdmission,
  KeyValueStore,
  SlotOptions,
  SlotReservation,
  StoreHealth,
  WindowCount,
  WindowHit,
} from './key-value.store.js';

/**
 * Sliding-window counters on the server clock, one per key (window length and limit in ARGV):
 * this window's hits plus the previous window's, weighted by how much of it still overlaps.
 * The hit is counted in every window when each has room for it, in none otherwise (a refused
 * hit is not counted). Returns [count with this hit, ms until this window ends] per key.
 */
const HIT_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local out = {}
local buckets = {}
local added = {}
local admit = true
for i, key in ipairs(KEYS) do
  local w = tonumber(ARGV[2 * i - 1])
  local index = math.floor(now / w)
  local elapsed = now - index * w
  local bucket = key .. ':' .. index
  buckets[i] = {bucket, w}
  added[bucket] = (added[bucket] or 0) + 1
  local current = tonumber(redis.call('GET', bucket) or '0') + added[bucket]
  local previous = tonumber(redis.call('GET', key .. ':' .. (index - 1)) or '0')
  out[2 * i - 1] = math.ceil(previous * (w - elapsed) / w) + current
  out[2 * i] = w - elapsed
  if out[2 * i - 1] > tonumber(ARGV[2 * i]) then admit = false end
end
if admit then
  for i, bucket in ipairs(buckets) do
    if redis.call('INCR', bucket[1]) == 1 then redis.call('PEXPIRE', bucket[1], bucket[2] * 2) end
  end
end
return out`;

/**
 * `KeyValueStore.admitAttempt`: a sorted set per key (attempt ids scored by the server clock);
 * ARGV[1] is the attempt's id, then window length and limit per key. Returns {admitted,
 * retryAfterMs}: a full log has room once its oldest attempts beyond limit - 1 leave the window.
 */
const ADMIT_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local full = false
local wait = 0
for i, key in ipairs(KEYS) do
  local w = tonumber(ARGV[2 * i])
  local limit = tonumber(ARGV[2 * i + 1])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - w)
  local n = redis.call('ZCARD', key)
  if n >= limit then
    full = true
    local leaving = redis.call('ZRANGE', key, n - limit, n - limit, 'WITHSCORES')
    if leaving[2] then
      wait = math.max(wait, tonumber(leaving[2]) + w - now)
    else
      wait = math.max(wait, w)
    end
  end
end
if full then return {0, wait} end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[1])
  redis.call('PEXPIRE', key, ARGV[2 * i])
end
return {1, 0}`;

/** `KeyValueStore.claim`: SET NX that answers the value the key holds either way. */
const CLAIM_SCRIPT = `
local held = redis.call('GET', KEYS[1])
if held then return held end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return ARGV[1]`;

/** `KeyValueStore.increment`: INCR that keeps the key `ARGV[1]` ms from now. */
const INCREMENT_SCRIPT = `
local value = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return value`;

/** `KeyValueStore.deleteIf`: compare and delete. */
const DELETE_IF_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * GCRA (see `KeyValueStore.reserveSlot`), with a floor (ARGV[3] ms from now) and, with a second
 * key, a share: the sorted set of that share's slots still to start, at most ARGV[4] of them.
 * Returns {granted, waitMs, shareFull}.
 */
const RESERVE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if KEYS[2] then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then
    local first = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
    return {0, tonumber(first[2]) - now, 1}
  end
end
local stored = tonumber(redis.call('GET', KEYS[1]) or '0')
local tat = math.max(stored, now, now + tonumber(ARGV[3]))
local wait = tat - now
if wait > tonumber(ARGV[2]) then
  if tat > stored then redis.call('SET', KEYS[1], tat, 'PX', 60000) end
  return {0, wait, 0}
end
redis.call('SET', KEYS[1], tat + tonumber(ARGV[1]), 'PX', 60000)
if KEYS[2] then
  redis.call('ZADD', KEYS[2], tat, string.format('%.0f', tat))
  redis.call('PEXPIRE', KEYS[2], wait + 60000)
end
return {1, wait, 0}`;

/**
 * Every script, defined on the client at construction. ioredis' auto-pipelining builds each tick's
 * pipeline from the commands the client has when the tick starts: a command defined later is
 * missing from it, the call rejects, and the batch's answers no longer line up, which throws
 * outside any promise (ioredis issue 1931). So nothing is defined after the first command. The key
 * count is given per call (no `numberOfKeys`), so one definition serves every count.
 */
const SCRIPTS = {
  hitWindows: HIT_SCRIPT,
  admitAttempt: ADMIT_SCRIPT,
  claimKey: CLAIM_SCRIPT,
  incrementKey: INCREMENT_SCRIPT,
  deleteIfHeld: DELETE_IF_SCRIPT,
  reserveSlot: RESERVE_SCRIPT,
} as const;

/** How long `subscribe` waits for Redis before leaving the subscription queued. */
const SUBSCRIBE_WAIT_MS = 1000;

type ScriptName = keyof typeof SCRIPTS;
type ScriptCommands = Record<
  ScriptName,
  (numberOfKeys: number, ...keysAndArgs: (string | number)[]) => Promise<unknown>
>;

function connect(url: string, keyPrefix: string, name: string): Redis & ScriptCommands {
  const client = new Redis(url, {
    keyPrefix,
    connectionName: name,
    // Fail fast while disconnected instead of queueing: callers have fallbacks (docs/decisions.md,
    // "Rate limits on @nestjs/throttler").
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    // Commands issued in the same tick go out in one write: far fewer syscalls under load. Safe
    // only because every script is defined below, before any command.
    enableAutoPipelining: true,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  for (const [command, lua] of Object.entries(SCRIPTS)) {
    client.defineCommand(command, { lua });
  }
  return client as Redis & ScriptCommands;
}

export class RedisStore implements KeyValueStore {
  readonly kind = 'redis' as const;
  private readonly logger = new Logger(RedisStore.name);
  private readonly client: Redis & ScriptCommands;
  private subscriber: Redis | null = null;
  private readonly handlers = new Map<string, ((message: string) => void)[]>();

  constructor(
    private readonly url: string,
    private readonly keyPrefix: string,
  ) {
    this.client = connect(url, keyPrefix, 'swap-partners');
    this.client.on('error', (error: Error) =>
      this.logger.warn({ err: error.message }, 'redis error'),
    );
  }

  async get(key: string): Promise<string | null> {
    return this.client.get(key);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.client.set(key, value, 'PX', ttlMs);
  }

  async del(key: string): Promise<void> {
    await this.client.del(key);
  }

  async claim(key: string, value: string, ttlMs: number): Promise<string> {
    return (await this.script('claimKey', [key], [value, ttlMs])) as string;
  }

  async increment(key: string, ttlMs: number): Promise<number> {
    return (await this.script('incrementKey', [key], [ttlMs])) as number;
  }

  async deleteIf(key: string, value: string): Promise<void> {
    await this.script('deleteIfHeld', [key], [value]);
  }

  async hitMany(entries: readonly WindowHit[]): Promise<WindowCount[]> {
    const flat = (await this.script(
      'hitWindows',
      entries.map((e) => e.key),
      entries.flatMap((e) => [e.windowMs, e.limit]),
    )) as number[];
    return entries.map((_, i) => ({ count: flat[2 * i], resetMs: flat[2 * i + 1] }));
  }

  async admitAttempt(entries: readonly WindowHit[], id: string): Promise<AttemptAdmission> {
    const [admitted, retryAfterMs] = (await this.script(
      'admitAttempt',
      entries.map((e) => e.key),
      [id, ...entries.flatMap((e) => [e.windowMs, e.limit])],
    )) as [number, number];
    return { admitted: admitted === 1, retryAfterMs };
  }

  async forgetAttempt(keys: readonly string[], id: string): Promise<void> {
    await Promise.all(keys.map((key) => this.client.zrem(key, id)));
  }

  async reserveSlot(
    key: string,
    spacingMs: number,
    maxWaitMs: number,
    options: SlotOptions = {},
  ): Promise<SlotReservation> {
    const [granted, waitMs, shareFull] = (await this.script(
      'reserveSlot',
      options.share ? [key, options.share.key] : [key],
      [spacingMs, maxWaitMs, options.notBeforeMs ?? 0, options.share?.max ?? 0],
    )) as [number, number, number];
    return { granted: granted === 1, waitMs, shareFull: shareFull === 1 };
  }

  /**
   * Runs a script by its SHA (`EVALSHA`; ioredis loads it again after a server restart), so each
   * call sends the arguments only, not the source. Keys get the prefix.
   */
  private async script(
    name: ScriptName,
    keys: string[],
    args: (string | number)[],
  ): Promise<unknown> {
    return this.client[name](keys.length, ...keys, ...args);
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.client.publish(this.keyPrefix + channel, message);
  }

  /**
   * Resolves once subscribed, or after a second while Redis is unreachable: the subscription is
   * then queued on its own connection and made when Redis answers (and renewed after each
   * reconnect), so a process starting during an outage is not held up by it.
   */
  async subscribe(channel: string, handler: (message: string) => void): Promise<void> {
    const full = this.keyPrefix + channel;
    this.handlers.set(full, [...(this.handlers.get(full) ?? []), handler]);
    if (!this.subscriber) {
      // A subscribed connection cannot run commands, so fan-out gets its own. It queues the
      // SUBSCRIBE until connected, however long that takes (a refused one would not be renewed
      // after a reconnect), and re-subscribes by itself after each reconnect.
      this.subscriber = new Redis(this.url, {
        connectionName: 'swap-partners-sub',
        lazyConnect: false,
        maxRetriesPerRequest: null,
      });
      this.subscriber.on('error', (error: Error) =>
        this.logger.warn({ err: error.message }, 'redis subscriber error'),
      );
      this.subscriber.on('message', (ch: string, message: string) => {
        for (const h of this.handlers.get(ch) ?? []) {
          h(message);
        }
      });
    }
    const subscribed = this.subscriber.subscribe(full).then(
      () => null,
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    );
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<'waiting'>((resolve) => {
      timer = setTimeout(() => resolve('waiting'), SUBSCRIBE_WAIT_MS);
    });
    try {
      const outcome = await Promise.race([subscribed, waited]);
      if (outcome instanceof Error) {
        throw outcome;
      }
      if (outcome === 'waiting') {
        this.logger.warn({ channel }, 'redis unreachable: subscribing once it answers');
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** Up when the server answers a ping within `timeoutMs`, waiting for a connection under way. */
  async health(timeoutMs: number): Promise<StoreHealth> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<StoreHealth>((resolve) => {
      timer = setTimeout(() => resolve('down'), timeoutMs);
    });
    const ping = this.connected()
      .then(() => this.client.ping())
      .then(
        (): StoreHealth => 'up',
        (): StoreHealth => 'down',
      );
    try {
      return await Promise.race([ping, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Resolves once the client is ready; commands sent before are refused (no offline queue). */
  private async connected(): Promise<void> {
    if (this.client.status !== 'connecting' && this.client.status !== 'connect') {
      return;
    }
    await once(this.client, 'ready');
  }

  async close(): Promise<void> {
    this.subscriber?.disconnect();
    this.client.disconnect();
    return Promise.resolve();
  }
}
