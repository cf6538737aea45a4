import type { KeyValueStore } from '#app/redis';
import { MemoryStore } from '#app/redis';
import { RecordingObserver } from '#test/fakes';
import { CIRCUIT_OPEN_MS, ProviderCircuits } from './provider-circuits.js';

const CHANGELLY = { provider: 'changelly', livemode: true } as const;

/** A store that fails every command, as Redis does while it is down. */
function deadStore(): KeyValueStore {
  const fail = () => Promise.reject(new Error('connection refused'));
  return {
    kind: 'redis',
    get: fail,
    set: fail,
    del: fail,
    claim: fail,
    increment: fail,
    deleteIf: fail,
    hitMany: fail,
    admitAttempt: fail,
    forgetAttempt: fail,
    reserveSlot: fail,
    publish: fail,
    subscribe: fail,
    health: () => Promise.resolve('down'),
    close: () => Promise.resolve(),
  };
}

describe(ProviderCircuits.name, () => {
  let clock: number;
  let store: MemoryStore;
  let sut: ProviderCircuits;
  let otherReplica: ProviderCircuits;
  const now = () => clock;

  async function fail(times: number, circuits = sut): Promise<void> {
    for (let i = 0; i < times; i++) {
      await circuits.record(CHANGELLY, 'failure');
    }
  }

  beforeEach(() => {
    clock = 1_000_000;
    store = new MemoryStore();
    sut = new ProviderCircuits(store, 'replica-a', null, now);
    otherReplica = new ProviderCircuits(store, 'replica-b', null, now);
  });

  afterEach(async () => {
    await store.close();
  });

  it('opens after five failures in a row, on every replica', async () => {
    await fail(4);
    expect(await sut.state(CHANGELLY)).toBe('closed');

    await fail(1, otherReplica);
    clock += 250; // a replica reads the shared state at most every 250 ms

    expect(await sut.state(CHANGELLY)).toBe('open');
    expect(await otherReplica.admit(CHANGELLY)).toBe(false);
  });

  it('starts counting again after a success', async () => {
    await fail(4);
    await sut.record(CHANGELLY, 'success');
    await fail(4);

    expect(await sut.state(CHANGELLY)).toBe('closed');
  });

  it('ignores what proves nothing about the provider (rate limits, refusals)', async () => {
    await fail(4);
    await sut.record(CHANGELLY, 'neutral');
    await fail(1);

    expect(await sut.state(CHANGELLY)).toBe('open');
  });

  it('lets one call through after 15 s, on one replica only', async () => {
    await fail(5);
    clock += CIRCUIT_OPEN_MS;

    expect(await sut.state(CHANGELLY)).toBe('half_open');
    expect(await sut.admit(CHANGELLY)).toBe(true);
    expect(await otherReplica.admit(CHANGELLY)).toBe(false);
  });

  it('closes when the half-open call succeeds', async () => {
    await fail(5);
    clock += CIRCUIT_OPEN_MS;
    await sut.admit(CHANGELLY);

    await sut.record(CHANGELLY, 'success');

    expect(await otherReplica.state(CHANGELLY)).toBe('closed');
    expect(await otherReplica.admit(CHANGELLY)).toBe(true);
  });

  it('opens again for another 15 s when the half-open call fails', async () => {
    await fail(5);
    clock += CIRCUIT_OPEN_MS;
    await sut.admit(CHANGELLY);

    await sut.record(CHANGELLY, 'failure');

    expect(await otherReplica.state(CHANGELLY)).toBe('open');
    clock += CIRCUIT_OPEN_MS - 300;
    expect(await otherReplica.state(CHANGELLY)).toBe('open');
    clock += 300;
    expect(await otherReplica.state(CHANGELLY)).toBe('half_open');
  });

  it('gives the probe back when the half-open call proved nothing', async () => {
    await fail(5);
    clock += CIRCUIT_OPEN_MS;
    await sut.admit(CHANGELLY);

    await sut.record(CHANGELLY, 'neutral');

    expect(await otherReplica.admit(CHANGELLY)).toBe(true);
  });

  it('keeps each mode and provider apart', async () => {
    await fail(5);

    expect(await sut.state({ provider: 'changenow', livemode: true })).toBe('closed');
    expect(await sut.state({ provider: 'changelly', livemode: false })).toBe('closed');
  });

  it('tells its watcher every state it reads and every change it makes', async () => {
    const watcher = new RecordingObserver();
    const watched = new ProviderCircuits(store, 'replica-d', watcher, now);

    await watched.state(CHANGELLY);
    await fail(5, watched);
    clock += CIRCUIT_OPEN_MS;
    await watched.admit(CHANGELLY);
    await watched.record(CHANGELLY, 'success');
    await watched.state({ provider: 'changenow', livemode: false });

    expect(watcher.circuits).toEqual([
      ['changelly', true, 'closed'],
      ['changelly', true, 'open'],
      ['changelly', true, 'half_open'],
      ['changelly', true, 'closed'],
      ['changenow', false, 'closed'],
    ]);
  });

  it("keeps each replica's own view while the store is unreachable", async () => {
    const alone = new ProviderCircuits(deadStore(), 'replica-c', null, now);

    await fail(5, alone);

    expect(await alone.state(CHANGELLY)).toBe('open');
    expect(await sut.state(CHANGELLY)).toBe('closed');
  });
});
