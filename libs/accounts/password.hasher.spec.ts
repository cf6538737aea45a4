import { PasswordHasher } from './password.hasher.js';

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
    const task = () => async () => {
      starts.push(performance.now());
      await new Promise((resolve) => setTimeout(resolve, 40));
    };

    await Promise.all([fresh.exclusively(task()), fresh.exclusively(task())]);

    // 40 ms of work, then at least as long a rest (timers never fire early).
    expect(starts[1] - starts[0]).toBeGreaterThanOrEqual(79);
  });
});
