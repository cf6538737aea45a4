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

  it("takes each provider's spread off the market rate, for float and fixed alike", () => {
    const book = new SpreadBook(CATALOGUE, 42);
    book.set('changelly', 'btc', 'eth', 0);
    book.set('changenow', 'btc', 'eth', 100);
    const sut = new Market(CATALOGUE, 42, 1000, start, book);
    const amount = new Decimal('0.1');

    const market = sut.rate(btc, eth, start);

    expect(sut.providerRate('changelly', btc, eth, start).toFixed()).toBe(market.toFixed());
    expect(sut.providerRate('changenow', btc, eth, start).toFixed()).toBe(
      market.mul('0.99').toSignificantDigits(12).toFixed(),
    );
    expect(sut.floatPrice('changenow', btc, eth, amount, start).rate.toFixed()).toBe(
      market.mul('0.99').toSignificantDigits(12).toFixed(),
    );
    expect(
      sut
        .fixedPrice('changenow', btc, eth, amount, start)
        .amountTo.lt(sut.fixedPrice('changelly', btc, eth, amount, start).amountTo),
    ).toBe(true);
  });

  it("bounds ChangeNOW at 0.8 × Changelly's minimum and 1.25 × its maximum", () => {
    const sut = new Market(CATALOGUE, 42, 1000, start, spreads);
    for (const c of CATALOGUE) {
      const changelly = sut.bounds('changelly', c, start);
      const changenow = sut.bounds('changenow', c, start);
      const scale = Math.min(c.precision, 8);
      expect(changenow.minFloat.toFixed()).toBe(
        changelly.minFloat.mul('0.8').toDecimalPlaces(scale, Decimal.ROUND_UP).toFixed(),
      );
      expect(changenow.maxFixed.toFixed()).toBe(
        changelly.maxFixed.mul('1.25').toDecimalPlaces(scale, Decimal.ROUND_DOWN).toFixed(),
      );
    }
  });
});
