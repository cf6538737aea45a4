import { Decimal } from 'decimal.js';
import { CATALOGUE, type SandboxCurrency } from './catalogue.js';
import { Market } from './market.js';
import { SpreadBook } from './spread.book.js';

function currency(ticker: string): SandboxCurrency {
  const found = CATALOGUE.find((c) => c.ticker === ticker);
  if (!found) {
    throw new Error(ticker);
  }
  return found;
}

describe(Market.name, () => {
  const start = 1_700_000_000_000;
  const btc = currency('btc');
  const eth = currency('eth');
  const usdt = currency('usdtrx');
  const spreads = new SpreadBook(CATALOGUE, 42);

  it('starts at the reference prices and walks reproducibly from the seed', () => {
    const sut = new Market(CATALOGUE, 42, 1000, start, spreads);
    const twin = new Market(CATALOGUE, 42, 1000, start, spreads);
    const other = new Market(CATALOGUE, 43, 1000, start, spreads);

    expect(sut.usdPrice(btc, start).toFixed()).toBe('65000');
    const later = start + 10_500;
    expect(sut.usdPrice(btc, later).toFixed()).toBe(twin.usdPrice(btc, later).toFixed());
    expect(sut.usdPrice(btc, later).toFixed()).not.toBe(other.usdPrice(btc, later).toFixed());
    expect(sut.usdPrice(usdt, later).toFixed()).toBe('1');
  });

  it('keeps fixed bounds inside float bounds', () => {
    const sut = new Market(CATALOGUE, 42, 1000, start, spreads);
    for (const c of CATALOGUE) {
      const bounds = sut.bounds('changelly', c, start + 5000);
      expect(bounds.minFloat.lte(bounds.minFixed)).toBe(true);
      expect(bounds.minFixed.lte(bounds.maxFixed)).toBe(true);
      expect(bounds.maxFixed.lte(bounds.maxFloat)).toBe(true);
    }
  });

  it('takes the float fee and the fixed spread off the market rate, at payout precision', () => {
    const sut = new Market(CATALOGUE, 42, 1000, start, spreads);
    const amount = new Decimal('0.1');

    const float = sut.floatPrice('changelly', btc, eth, amount, start);
    const fixed = sut.fixedPrice('changelly', btc, eth, amount, start);

    const gross = amount.mul(sut.rate(btc, eth, start));
    expect(float.amountTo.plus(float.fee).lte(gross)).toBe(true);
    expect(fixed.amountTo.lt(gross)).toBe(true);
    expect(float.amountTo.decimalPlaces()).toBeLessThanOrEqual(eth.precision);
    expect(fixed.amountTo.decimalPlaces()).toBeLessThanOrEqual(eth.precision);
  });
});
