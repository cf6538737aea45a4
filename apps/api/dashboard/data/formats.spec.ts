import { pairLabel, usd, when } from './formats.js';

describe('dashboard formats', () => {
  it('writes USD with separators and two decimals, never rounding up', () => {
    expect(usd('0')).toBe('$0.00');
    expect(usd('1234567.891')).toBe('$1,234,567.89');
    expect(usd('99.999999')).toBe('$99.99');
    expect(usd('100')).toBe('$100.00');
  });

  it('writes times in UTC to the minute and pairs with an arrow', () => {
    expect(when('2026-11-25T14:03:59.123Z')).toBe('2026-11-25 14:03 UTC');
    expect(when(null)).toBe('—');
    expect(pairLabel('btc', 'eth')).toBe('btc → eth');
  });
});
