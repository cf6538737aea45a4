import { jest } from '@jest/globals';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { MemoryStore, type WindowHit } from '#app/redis';
import { SharedThrottlerStorage } from './throttler.storage.js';

/** The shared store, recording each round trip, and able to fail like a Redis that is down. */
class RecordingStore extends MemoryStore {
  readonly roundTrips: WindowHit[][] = [];
  down = false;

  override hitMany(entries: readonly WindowHit[]) {
    if (this.down) {
      return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    }
    this.roundTrips.push([...entries]);
    return super.hitMany(entries);
  }
}

describe(SharedThrottlerStorage.name, () => {
  let store: RecordingStore;
  let sut: SharedThrottlerStorage;

  beforeEach(() => {
    store = new RecordingStore();
    sut = new SharedThrottlerStorage(store);
  });

  afterEach(async () => {
    await store.close();
  });

  it('counts every limit of a request in one round trip', async () => {
    const hits = [
      { key: 'ip:/v1:10.0.0.1', ttlMs: 1000, limit: 120 },
      { key: 'credential:c1', ttlMs: 1000, limit: 30 },
    ];
    await sut.incrementMany(hits);
    const [ip, credential] = await sut.incrementMany(hits);
    expect(store.roundTrips).toHaveLength(2);
    expect(store.roundTrips[0].map((h) => h.key)).toEqual([
      'rl:ip:/v1:10.0.0.1',
      'rl:credential:c1',
    ]);
    expect([ip.totalHits, credential.totalHits]).toEqual([2, 2]);
    expect(ip.timeToExpire).toBeGreaterThanOrEqual(1);
  });

  it('blocks past the limit and says for how long', async () => {
    const hit = { key: 'public-quote:10.0.0.2', ttlMs: 60_000, limit: 2 };
    await sut.incrementMany([hit, hit]);
    const [third] = await sut.incrementMany([hit]);
    expect(third).toMatchObject({ totalHits: 3, isBlocked: true });
    expect(third.timeToBlockExpire).toBeGreaterThanOrEqual(1);
    expect(third.timeToBlockExpire).toBeLessThanOrEqual(60);
  });

  it('admits the limit each second to a client retrying at 1.5 times the limit', async () => {
    jest.useFakeTimers({ now: 1_000_000, doNotFake: ['nextTick', 'setImmediate'] });
    try {
      const hit = { key: 'credential:retrying', ttlMs: 1000, limit: 30 };
      const admittedPerSecond = new Map<number, number>();
      for (let t = 0; t < 6000; t += 1000 / 45) {
        jest.setSystemTime(1_000_000 + Math.round(t));
        const [record] = await sut.incrementMany([hit]);
        const second = Math.floor(t / 1000);
        admittedPerSecond.set(
          second,
          (admittedPerSecond.get(second) ?? 0) + Number(!record.isBlocked),
        );
      }
      for (const [second, admitted] of admittedPerSecond) {
        expect({ second, admitted: admitted >= 25 && admitted <= 30 }).toEqual({
          second,
          admitted: true,
        });
      }
    } finally {
      jest.useRealTimers();
    }
  });

  it('keeps limiting with per-process counters while the store is down', async () => {
    store.down = true;
    const hit = { key: 'credential:c2', ttlMs: 1000, limit: 1 };
    const [first] = await sut.incrementMany([hit]);
    const [second] = await sut.incrementMany([hit]);
    expect(first.isBlocked).toBe(false);
    expect(second.isBlocked).toBe(true);
  });

  it('implements the throttler interface for a single limit', async () => {
    const storage: ThrottlerStorage = sut;
    const record = await storage.increment('ip:/admin:10.0.0.3', 1000, 120, 1000, 'ip');
    expect(record).toMatchObject({ totalHits: 1, isBlocked: false, timeToBlockExpire: 0 });
  });
});
