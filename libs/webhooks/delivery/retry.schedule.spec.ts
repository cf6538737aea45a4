import { nextAttemptAt, WEBHOOK_RETRY_WINDOW_MS, type RetryPlan } from './retry.schedule.js';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

describe(nextAttemptAt.name, () => {
  const created = new Date('2026-11-23T00:00:00Z');
  const plan = (random: number): RetryPlan => ({ baseMs: 5_000, random: () => random });
  const delayAfter = (attempts: number, random = 0.5) =>
    nextAttemptAt(plan(random), attempts, created, created)!.getTime() - created.getTime();

  it('waits 5 s, 30 s, 3 min, 15 min, 1 h, 6 h, then 12 h with the default base', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => delayAfter(n))).toEqual([
      5 * SECOND,
      30 * SECOND,
      3 * MINUTE,
      15 * MINUTE,
      HOUR,
      6 * HOUR,
      12 * HOUR,
      12 * HOUR,
    ]);
  });

  it('spreads retries by up to 10 % either way', () => {
    expect(delayAfter(2, 0)).toBe(27 * SECOND);
    expect(delayAfter(2, 0.999999)).toBeCloseTo(33 * SECOND, -1);
  });

  it('scales with the base, so tests can retry within milliseconds', () => {
    const next = nextAttemptAt({ baseMs: 10, random: () => 0.5 }, 2, created, created)!;
    expect(next.getTime() - created.getTime()).toBe(60);
  });

  it('gives up once the next try would fall after 3 days from the first', () => {
    const lastChance = new Date(created.getTime() + WEBHOOK_RETRY_WINDOW_MS - 13 * HOUR);
    expect(nextAttemptAt(plan(0.5), 9, created, lastChance)).not.toBeNull();

    const late = new Date(created.getTime() + WEBHOOK_RETRY_WINDOW_MS - 11 * HOUR);
    expect(nextAttemptAt(plan(0.5), 9, created, late)).toBeNull();
  });
});
