import { PARTNER_MAX_GATE_WAIT_MS } from '#app/rate-limit';
import { keyLockMs } from './key-reservations.js';

describe(keyLockMs.name, () => {
  it.each([[1500], [10_000], [120_000]])(
    'outlives three upstream calls of %i ms, each after a full wait for the budget',
    (timeoutMs) => {
      expect(keyLockMs(timeoutMs)).toBeGreaterThan(3 * (timeoutMs + PARTNER_MAX_GATE_WAIT_MS));
    },
  );

  it('grows with the configured timeout, so the largest one allowed is covered', () => {
    expect(keyLockMs(120_000)).toBeGreaterThan(keyLockMs(10_000));
  });
});
