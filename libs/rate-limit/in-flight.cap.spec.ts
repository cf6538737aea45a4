import { jest } from '@jest/globals';
import { MemoryStore } from '#app/redis';
import { SharedInFlightCap } from './in-flight.cap.js';

/** The shared store, able to fail like a Redis that is down. */
class FailingStore extends MemoryStore {
  down = false;

  override claim(key: string, value: string, ttlMs: number) {
    return this.down
      ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'))
      : super.claim(key, value, ttlMs);
  }

  override deleteIf(key: string, value: string) {
    return this.down
      ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'))
      : super.deleteIf(key, value);
  }
}

const ENDPOINT = { key: 'ping:endpoint:e1', max: 1 };
const ORGANIZATION = { key: 'ping:organization:o1', max: 3 };

describe(SharedInFlightCap.name, () => {
  let store: FailingStore;
  let sut: SharedInFlightCap;
  let otherReplica: SharedInFlightCap;

  beforeEach(() => {
    store = new FailingStore();
    sut = new SharedInFlightCap(store, 10_000);
    otherReplica = new SharedInFlightCap(store, 10_000);
  });

  afterEach(async () => {
    jest.useRealTimers();
    await store.close();
  });

  it('holds each cap across the replicas sharing the store', async () => {
    const first = await sut.acquire([ENDPOINT, ORGANIZATION]);

    expect(first).not.toBeNull();
    expect(await otherReplica.acquire([ENDPOINT, ORGANIZATION])).toBeNull();
    const others = await Promise.all(
      ['e2', 'e3', 'e4'].map((e) =>
        otherReplica.acquire([{ key: `ping:endpoint:${e}`, max: 1 }, ORGANIZATION]),
      ),
    );
    expect(others.map((lease) => lease !== null)).toEqual([true, true, false]);
  });

  it('takes all slots or none: a refusal gives back what it took', async () => {
    const held = await Promise.all(
      ['e2', 'e3', 'e4'].map((e) =>
        sut.acquire([{ key: `ping:endpoint:${e}`, max: 1 }, ORGANIZATION]),
      ),
    );

    expect(await otherReplica.acquire([ENDPOINT, ORGANIZATION])).toBeNull();
    await held[0]!.release();
    expect(await otherReplica.acquire([ENDPOINT, ORGANIZATION])).not.toBeNull();
  });

  it('frees the slots of a holder that never gives them back once its lease ends', async () => {
    jest.useFakeTimers({ now: 1_000_000, doNotFake: ['nextTick', 'setImmediate'] });
    await sut.acquire([ENDPOINT]);
    expect(await otherReplica.acquire([ENDPOINT])).toBeNull();

    jest.setSystemTime(1_000_000 + 10_001);

    expect(await otherReplica.acquire([ENDPOINT])).not.toBeNull();
  });

  it('falls back to per-process caps while the store is down, and never throws', async () => {
    const before = await sut.acquire([ENDPOINT]);
    store.down = true;

    const mine = await sut.acquire([ENDPOINT]);
    const again = await sut.acquire([ENDPOINT]);
    const theirs = await otherReplica.acquire([ENDPOINT]);

    expect(mine).not.toBeNull();
    expect(again).toBeNull();
    expect(theirs).not.toBeNull();
    await expect(before!.release()).resolves.toBeUndefined();
    await mine!.release();
    expect(await sut.acquire([ENDPOINT])).not.toBeNull();
  });
});
