import { randomBytes } from 'node:crypto';
import { RedisStore } from './redis.store.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Collects what escapes every promise while a test runs: such an error would end the process. */
function watchUncaught(): { errors: unknown[]; stop: () => void } {
  const errors: unknown[] = [];
  const record = (error: unknown) => errors.push(error);
  process.on('uncaughtException', record);
  return { errors, stop: () => process.off('uncaughtException', record) };
}

/** Lets every queued callback of the client run, where a misaligned pipeline would throw. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

/** Every operation of the store, plain commands and each script, started in one tick. */
function everyOperation(sut: RedisStore) {
  return Promise.allSettled([
    sut.get('plain'),
    sut.set('plain', 'value', 10_000),
    sut.claim('lock', 'mine', 10_000),
    sut.hitMany([{ key: 'window', windowMs: 1_000, limit: 5 }]),
    sut.hitMany([
      { key: 'ip', windowMs: 1_000, limit: 5 },
      { key: 'credential', windowMs: 60_000, limit: 5 },
    ]),
    sut.deleteIf('lock', 'mine'),
    sut.increment('counter', 10_000),
    sut.reserveSlot('bucket', 100, 0),
    sut.reserveSlot('shared bucket', 100, 0, { share: { key: 'share', max: 2 } }),
    sut.del('plain'),
    sut.admitAttempt([{ key: 'attempts', windowMs: 1_000, limit: 5 }], 'attempt'),
    sut.forgetAttempt(['attempts'], 'attempt'),
  ]);
}

describe(RedisStore.name, () => {
  let sut: RedisStore;
  let uncaught: ReturnType<typeof watchUncaught>;

  beforeEach(() => {
    uncaught = watchUncaught();
    sut = new RedisStore(REDIS_URL, `test:store:${randomBytes(4).toString('hex')}:`);
  });

  afterEach(async () => {
    uncaught.stop();
    await sut.close();
  });

  it('survives every operation in its first tick, before it has connected', async () => {
    await everyOperation(sut);
    await settle();

    expect(uncaught.errors).toEqual([]);
    await expect(sut.health(2_000)).resolves.toBe('up');
  });

  it('answers every operation started in one tick once connected, no script defined yet', async () => {
    await expect(sut.health(2_000)).resolves.toBe('up');

    const results = await everyOperation(sut);
    await settle();

    expect(uncaught.errors).toEqual([]);
    expect(results.map((r) => r.status)).toEqual(results.map(() => 'fulfilled'));
    const values = results.map((r) => (r.status === 'fulfilled' ? r.value : r.reason));
    expect(values[2]).toBe('mine');
    expect(values[3]).toEqual([{ count: 1, resetMs: expect.any(Number) }]);
    expect(values[4]).toHaveLength(2);
    expect(values[6]).toBe(1);
    expect(values[7]).toMatchObject({ granted: true, shareFull: false });
    expect(values[8]).toMatchObject({ granted: true, shareFull: false });
    expect(values[10]).toEqual({ admitted: true, retryAfterMs: 0 });
  });

  it('counts up from nothing and keeps the count for its time to live', async () => {
    await expect(sut.health(2_000)).resolves.toBe('up');
    await expect(sut.increment('failures', 10_000)).resolves.toBe(1);
    await expect(sut.increment('failures', 10_000)).resolves.toBe(2);
    await expect(sut.get('failures')).resolves.toBe('2');
    await sut.del('failures');
    await expect(sut.increment('failures', 50)).resolves.toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 120));
    await expect(sut.get('failures')).resolves.toBeNull();
  });

  it('prefixes the keys its scripts touch', async () => {
    await expect(sut.health(2_000)).resolves.toBe('up');
    await expect(sut.claim('held', 'first', 10_000)).resolves.toBe('first');
    await expect(sut.claim('held', 'second', 10_000)).resolves.toBe('first');
    await expect(sut.get('held')).resolves.toBe('first');
    await sut.deleteIf('held', 'first');
    await expect(sut.get('held')).resolves.toBeNull();
  });
});
