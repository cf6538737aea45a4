import { PARTNER_MAX_GATE_WAIT_MS } from '#app/rate-limit';
import { keyLockMs } from './key-reservations.js';

describe(keyLockMs.name, () => {
  it.each([[1500], [10_000], [120_000]])(
    'outlives three upstream calls of %i ms, each after a full wait for the budget',
    (timeoutMs) => {
      expect(keyLockMs(timeoutMs)).toBeGreaterThan(3 * (timeoutMs + PARTNER_MAX_GATE_WAIT_MS));
    },
  );

  it('outlives a failover: a quote and a create at each further provider', () => {
    const call = 10_000 + PARTNER_MAX_GATE_WAIT_MS;
    expect(keyLockMs(10_000, 2)).toBeGreaterThan(5 * call);
    expect(keyLockMs(10_000, 2)).toBeGreaterThan(keyLockMs(10_000, 1));
  });

  it('grows with the configured timeout, so the largest one allowed is covered', () => {
    expect(keyLockMs(120_000)).toBeGreaterThan(keyLockMs(10_000));
  });
});
