import { randomBytes } from 'node:crypto';
import type { KeyValueStore } from './key-value.store.js';
import { MemoryStore } from './memory.store.js';
import { RedisStore } from './redis.store.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Attempt logs (`admitAttempt`, `forgetAttempt`), the same in both stores. */
describe.each([
  ['MemoryStore', () => new MemoryStore()],
  [
    'RedisStore',
    () => new RedisStore(REDIS_URL, `test:attempts:${randomBytes(4).toString('hex')}:`),
  ],
])('attempt logs of %s', (_name, make: () => KeyValueStore) => {
  let sut: KeyValueStore;

  beforeEach(async () => {
    sut = make();
    await expect(sut.health(2_000)).resolves.not.toBe('down');
  });

  afterEach(async () => {
    await sut.close();
  });

  const account = { key: 'attempts:account', windowMs: 60_000, limit: 2 };
  const address = { key: 'attempts:ip', windowMs: 60_000, limit: 3 };

  it('admits attempts up to the limit, then refuses them, uncounted, with the wait', async () => {
    await expect(sut.admitAttempt([account], 'a1')).resolves.toEqual({
      admitted: true,
      retryAfterMs: 0,
    });
    await expect(sut.admitAttempt([account], 'a2')).resolves.toMatchObject({ admitted: true });
    const refused = await sut.admitAttempt([account], 'a3');
    expect(refused.admitted).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThan(59_000);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(60_000);
    await sut.forgetAttempt([account.key], 'a2');
    await expect(sut.admitAttempt([account], 'a4')).resolves.toMatchObject({ admitted: true });
  });

  it('admits into every log or none', async () => {
    for (const id of ['b1', 'b2']) {
      await expect(sut.admitAttempt([account, address], id)).resolves.toMatchObject({
        admitted: true,
      });
    }
    await expect(sut.admitAttempt([account, address], 'b3')).resolves.toMatchObject({
      admitted: false,
    });
    const other = { ...account, key: 'attempts:other-account' };
    await expect(sut.admitAttempt([other, address], 'b4')).resolves.toMatchObject({
      admitted: true,
    });
    await expect(sut.admitAttempt([other, address], 'b5')).resolves.toMatchObject({
      admitted: false,
    });
    await sut.forgetAttempt([other.key, address.key], 'b4');
    await expect(sut.admitAttempt([other, address], 'b6')).resolves.toMatchObject({
      admitted: true,
    });
  });

  it('lets an attempt leave its log when its window has passed', async () => {
    const short = { key: 'attempts:short', windowMs: 100, limit: 1 };
    await expect(sut.admitAttempt([short], 'c1')).resolves.toMatchObject({ admitted: true });
    await expect(sut.admitAttempt([short], 'c2')).resolves.toMatchObject({ admitted: false });
    await new Promise((resolve) => setTimeout(resolve, 150));
    await expect(sut.admitAttempt([short], 'c3')).resolves.toMatchObject({ admitted: true });
  });
});
