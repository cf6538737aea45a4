import { MemoryStore } from './memory.store.js';

describe(MemoryStore.name, () => {
  let sut: MemoryStore;

  beforeEach(() => {
    sut = new MemoryStore();
  });

  afterEach(async () => {
    await sut.close();
  });

  it('counts hits in a window and says when it ends', async () => {
    await sut.hitMany([{ key: 'k', windowMs: 60_000, limit: 100 }]);
    const [second] = await sut.hitMany([{ key: 'k', windowMs: 60_000, limit: 100 }]);
    expect(second.count).toBe(2);
    expect(second.resetMs).toBeGreaterThan(0);
    expect(second.resetMs).toBeLessThanOrEqual(60_000);
  });

  it('keeps keys apart, several in one call', async () => {
    await sut.hitMany([{ key: 'a', windowMs: 60_000, limit: 100 }]);
    const counts = await sut.hitMany([
      { key: 'a', windowMs: 60_000, limit: 100 },
      { key: 'b', windowMs: 1_000, limit: 100 },
    ]);
    expect(counts.map((c) => c.count)).toEqual([2, 1]);
    expect(counts[1].resetMs).toBeLessThanOrEqual(1_000);
  });

  it('does not count a refused hit, in any of its windows', async () => {
    const wide = { key: 'ip', windowMs: 60_000, limit: 100 };
    const narrow = { key: 'credential', windowMs: 60_000, limit: 2 };
    await sut.hitMany([wide, narrow]);
    await sut.hitMany([wide, narrow]);
    const refused = await sut.hitMany([wide, narrow]);
    const again = await sut.hitMany([wide, narrow]);
    expect(refused.map((c) => c.count)).toEqual([3, 3]);
    expect(again.map((c) => c.count)).toEqual([3, 3]);
    const [ipAlone] = await sut.hitMany([wide]);
    expect(ipAlone.count).toBe(3);
  });

  it('expires values after their ttl', async () => {
    await sut.set('k', 'v', 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await sut.get('k')).toBeNull();
  });

  it('delivers published messages to subscribers', async () => {
    const received: string[] = [];
    await sut.subscribe('ch', (m) => received.push(m));
    await sut.publish('ch', 'hello');
    expect(received).toEqual(['hello']);
  });
});
