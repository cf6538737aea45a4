import { CallStats } from './call.stats.js';

describe(CallStats.name, () => {
  function record(stats: CallStats, times: number[]): void {
    for (const time of times) {
      stats.record('getExchangeAmount', time);
    }
  }

  it('finds a busy window that straddles two wall-clock seconds', () => {
    const stats = new CallStats();
    record(stats, [10_600, 10_700, 10_800, 11_100, 11_200]);
    const snapshot = stats.snapshot();
    expect(snapshot.maxCallsPerSecond).toBe(3);
    expect(snapshot.maxCallsInAnyWindow).toBe(5);
  });

  it('never counts two calls a full second apart in one window', () => {
    const stats = new CallStats();
    record(stats, [0, 1000, 2000, 3000]);
    expect(stats.snapshot().maxCallsInAnyWindow).toBe(1);
  });

  it('starts over on reset', () => {
    const stats = new CallStats();
    record(stats, [0, 1, 2]);
    stats.reset();
    record(stats, [5]);
    expect(stats.snapshot()).toMatchObject({ totalCalls: 1, maxCallsInAnyWindow: 1 });
  });

  it('tells calls by id from listing calls, and keeps each listing offset', () => {
    const stats = new CallStats();
    stats.record('getTransactions', 0, { idsCount: 10, listingOffset: null });
    stats.record('getTransactions', 1, { idsCount: null, listingOffset: 0 });
    stats.record('getTransactions', 2, { idsCount: null, listingOffset: 100 });
    const { getTransactions, calls } = stats.snapshot();
    expect(calls.getTransactions).toBe(3);
    expect(getTransactions).toMatchObject({ calls: 1, idsRequested: 10, listingOffsets: [0, 100] });
  });
});
