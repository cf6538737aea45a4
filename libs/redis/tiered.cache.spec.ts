import { MemoryStore } from './memory.store.js';
import { TieredCache } from './tiered.cache.js';

/** A real in-process store that counts round trips and can be made to fail like a lost Redis. */
class CountingStore extends MemoryStore {
  reads = 0;
  writes = 0;
  failReads = false;
  failWrites = false;

  override get(key: string): Promise<string | null> {
    this.reads++;
    return this.failReads ? Promise.reject(new Error('Connection is closed.')) : super.get(key);
  }

  override set(key: string, value: string, ttlMs: number): Promise<void> {
    this.writes++;
    return this.failWrites
      ? Promise.reject(new Error('Connection is closed.'))
      : super.set(key, value, ttlMs);
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const LONG_TTL_MS = 60_000;

/** A loader that counts its calls and answers `value` (a fresh copy each time). */
function loader<T>(value: T) {
  const load = Object.assign(
    async (): Promise<T> => {
      load.calls++;
      await sleep(5);
      return structuredClone(value);
    },
    { calls: 0 },
  );
  return load;
}

describe(TieredCache.name, () => {
  let store: CountingStore;
  let sut: TieredCache;

  beforeEach(() => {
    store = new CountingStore();
    sut = new TieredCache(store, { namespace: 'spec' });
  });

  afterEach(async () => {
    await store.close();
  });

  it('loads a miss once, shares it through the store and answers hits from process memory', async () => {
    const load = loader({ rate: '0.05' });

    const first = await sut.get('btc:eth', LONG_TTL_MS, load);
    const second = await sut.get('btc:eth', LONG_TTL_MS, load);

    expect(first).toEqual({ rate: '0.05' });
    expect(second).toEqual({ rate: '0.05' });
    expect(load.calls).toBe(1);
    expect(store.reads).toBe(1);
    expect(store.writes).toBe(1);
  });

  it('keeps keys and namespaces apart', async () => {
    const other = new TieredCache(store, { namespace: 'other' });

    await sut.get('a', LONG_TTL_MS, loader('spec a'));
    await sut.get('b', LONG_TTL_MS, loader('spec b'));
    await other.get('a', LONG_TTL_MS, loader('other a'));

    expect(await sut.get('a', LONG_TTL_MS, loader('never'))).toBe('spec a');
    expect(await sut.get('b', LONG_TTL_MS, loader('never'))).toBe('spec b');
    expect(await other.get('a', LONG_TTL_MS, loader('never'))).toBe('other a');
  });

  it('lets concurrent misses of one key share one store read and one load', async () => {
    const load = loader(['btc', 'eth']);

    const answers = await Promise.all(
      Array.from({ length: 5 }, () => sut.get('currencies', LONG_TTL_MS, load)),
    );

    expect(answers).toEqual(Array.from({ length: 5 }, () => ['btc', 'eth']));
    expect(load.calls).toBe(1);
    expect(store.reads).toBe(1);
  });

  it('gives every concurrent caller the failure of a shared load, and loads again next time', async () => {
    let calls = 0;
    const failing = async (): Promise<string> => {
      calls++;
      await sleep(5);
      throw new Error('upstream down');
    };

    const results = await Promise.allSettled([
      sut.get('k', LONG_TTL_MS, failing),
      sut.get('k', LONG_TTL_MS, failing),
    ]);

    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toBe(1);
    await expect(sut.get('k', LONG_TTL_MS, loader('back'))).resolves.toBe('back');
  });

  it('serves another replica from the shared entry without loading', async () => {
    const replica = new TieredCache(store, { namespace: 'spec' });
    await sut.get('currencies', LONG_TTL_MS, loader(['btc']));
    const load = loader(['never']);

    await expect(replica.get('currencies', LONG_TTL_MS, load)).resolves.toEqual(['btc']);
    expect(load.calls).toBe(0);
  });

  it('loads when the store cannot be read, and answers without it', async () => {
    store.failReads = true;
    store.failWrites = true;
    const load = loader('fresh');

    await expect(sut.get('k', LONG_TTL_MS, load)).resolves.toBe('fresh');
    await expect(sut.get('k', LONG_TTL_MS, load)).resolves.toBe('fresh');

    expect(load.calls).toBe(1);
  });

  it('answers a load whose write to the store failed', async () => {
    store.failWrites = true;
    const load = loader('fresh');

    await expect(sut.get('k', LONG_TTL_MS, load)).resolves.toBe('fresh');

    expect(store.writes).toBe(1);
    expect(await store.get('cache:spec:k')).toBeNull();
  });

  it('treats an unreadable shared entry as a miss', async () => {
    await store.set('cache:spec:k', 'not json', LONG_TTL_MS);
    await store.set('cache:spec:old', JSON.stringify(['a bare value']), LONG_TTL_MS);

    await expect(sut.get('k', LONG_TTL_MS, loader('fresh'))).resolves.toBe('fresh');
    await expect(sut.get('old', LONG_TTL_MS, loader('fresh'))).resolves.toBe('fresh');
  });

  it('keeps at most 10 000 entries in process, the least recently used leaving first', async () => {
    for (let i = 0; i <= 10_000; i++) {
      await sut.get(`k${i}`, LONG_TTL_MS, () => Promise.resolve(i));
    }
    const readsBefore = store.reads;

    await expect(sut.get('k10000', LONG_TTL_MS, loader(-1))).resolves.toBe(10_000);
    expect(store.reads).toBe(readsBefore);
    await expect(sut.get('k0', LONG_TTL_MS, loader(-1))).resolves.toBe(0);
    expect(store.reads).toBe(readsBefore + 1);
  });

  it('loads again once the entry expired in both tiers', async () => {
    const load = loader('value');
    await sut.get('k', 30, load);

    await sleep(80);
    await sut.get('k', 30, load);

    expect(load.calls).toBe(2);
  });

  it('drops an in-process copy after localTtlMs and reads the shared entry again', async () => {
    sut = new TieredCache(store, { namespace: 'spec', localTtlMs: 20 });
    const load = loader('value');
    await sut.get('k', LONG_TTL_MS, load);

    await sleep(60);
    await expect(sut.get('k', LONG_TTL_MS, load)).resolves.toBe('value');

    expect(load.calls).toBe(1);
    expect(store.reads).toBe(2);
  });

  it('never keeps an in-process copy past the expiry of the shared entry it read', async () => {
    // Margins of seconds, so that a loaded machine's slow timers change nothing.
    const ttlMs = 3_000;
    await sut.get('k', ttlMs, loader('first'));
    const writtenBy = Date.now();
    await sleep(500);
    const replica = new TieredCache(store, { namespace: 'spec' });
    await expect(replica.get('k', ttlMs, loader('never'))).resolves.toBe('first');

    // Past the writer's expiry, though not yet `ttlMs` after the replica read it.
    await sleep(writtenBy + ttlMs + 100 - Date.now());

    await expect(replica.get('k', ttlMs, loader('second'))).resolves.toBe('second');
  });
});
