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
    await sut.hitMany([{ key: 'k', windowMs: 60_000 }]);
    const [second] = await sut.hitMany([{ key: 'k', windowMs: 60_000 }]);
    expect(second.count).toBe(2);
    expect(second.resetMs).toBeGreaterThan(0);
    expect(second.resetMs).toBeLessThanOrEqual(60_000);
  });

  it('keeps keys apart, several in one call', async () => {
    await sut.hitMany([{ key: 'a', windowMs: 60_000 }]);
    const counts = await sut.hitMany([
      { key: 'a', windowMs: 60_000 },
      { key: 'b', windowMs: 1_000 },
    ]);
    expect(counts.map((c) => c.count)).toEqual([2, 1]);
    expect(counts[1].resetMs).toBeLessThanOrEqual(1_000);
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
