import { AppError, ErrorCode } from '#app/errors';
import { HASH_QUEUE_LIMIT, PasswordHasher } from './password.hasher.js';

describe(PasswordHasher.name, () => {
  const sut = new PasswordHasher();

  it('hashes with argon2id and verifies only the right password', async () => {
    const hash = await sut.hash('correct horse battery staple');

    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    await expect(sut.verify(hash, 'correct horse battery staple')).resolves.toBe(true);
    await expect(sut.verify(hash, 'correct horse battery stapl')).resolves.toBe(false);
    await expect(sut.verify('not a hash', 'x')).resolves.toBe(false);
    await expect(sut.verifyNobody('anything')).resolves.toBe(false);
  });

  it('runs one piece of work at a time, in the order asked, past failures', async () => {
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const task = (i: number) => async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push(i);
      running -= 1;
      if (i === 1) {
        throw new Error('a failed hash');
      }
      return i;
    };

    const results = await Promise.allSettled([0, 1, 2, 3].map((i) => sut.exclusively(task(i))));

    expect(most).toBe(1);
    expect(order).toEqual([0, 1, 2, 3]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
  });

  it('rests after each piece of work as long as it took before starting the next', async () => {
    const fresh = new PasswordHasher();
    const starts: number[] = [];
    const ends: number[] = [];
    const task = () => async () => {
      starts.push(performance.now());
      await new Promise((resolve) => setTimeout(resolve, 40));
      ends.push(performance.now());
    };

    await Promise.all([fresh.exclusively(task()), fresh.exclusively(task())]);

    // The rest after the first piece lasts as long as it ran (timers round to the millisecond).
    expect(starts[1] - ends[0]).toBeGreaterThanOrEqual(ends[0] - starts[0] - 2);
  });

  it('holds at most its limit of work and refuses more at once: 503 with a retry time', async () => {
    const fresh = new PasswordHasher(3);
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const started: number[] = [];
    const task = (i: number) => async () => {
      started.push(i);
      await gate;
      return i;
    };

    const queued = [0, 1, 2].map((i) => fresh.exclusively(task(i)));
    const refused = await fresh.exclusively(task(3)).catch((error: unknown) => error);
    const hashRefused = await fresh.hash('a password of no one').catch((error: unknown) => error);
    release();

    await expect(Promise.all(queued)).resolves.toEqual([0, 1, 2]);
    for (const error of [refused, hashRefused]) {
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: ErrorCode.ServiceUnavailable, status: 503 });
      expect((error as AppError).retryAfterMs).toBeGreaterThanOrEqual(1000);
    }
    expect(started).toEqual([0, 1, 2]);
    // Drained, it takes work again; the decoy a full queue refused is made afresh.
    await expect(fresh.exclusively(task(4))).resolves.toBe(4);
    await expect(fresh.verifyNobody('anything')).resolves.toBe(false);
  });

  it('queues at most HASH_QUEUE_LIMIT pieces by default', () => {
    expect(sut.limit).toBe(HASH_QUEUE_LIMIT);
    expect(HASH_QUEUE_LIMIT).toBeLessThanOrEqual(32);
  });
});
