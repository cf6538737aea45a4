import { toIsoTimestamp } from './time.js';

describe(toIsoTimestamp.name, () => {
  const iso = '2025-11-21T10:15:30.000Z';
  const ms = Date.parse(iso);

  it.each([
    ['Unix seconds', ms / 1000],
    ['Unix seconds as a string', String(ms / 1000)],
    ['Unix milliseconds', ms],
    ['Unix microseconds', ms * 1000],
    ['an ISO string', iso],
    ['an ISO string with an offset', '2025-11-21T12:15:30+02:00'],
  ])('normalizes %s', (_label, value) => {
    expect(toIsoTimestamp(value)).toBe(iso);
  });

  it.each([null, undefined, 0, '0', ''])('reads %p as absent', (value) => {
    expect(toIsoTimestamp(value)).toBeNull();
  });

  it('refuses what is not a time', () => {
    expect(() => toIsoTimestamp('yesterday')).toThrow(TypeError);
  });
});
