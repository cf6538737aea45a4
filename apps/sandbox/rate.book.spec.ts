import { Decimal } from 'decimal.js';
import { CATALOGUE, type SandboxCurrency } from './catalogue.js';
import { checkQuotedAmount, checkQuotedPair, RateBook } from './rate.book.js';
import { SeededRandom } from './seeded-random.js';

const T0 = 1_700_000_000_000;
const TTL_MS = 60_000;

function currency(ticker: string): SandboxCurrency {
  const found = CATALOGUE.find((c) => c.ticker === ticker);
  if (!found) {
    throw new Error(ticker);
  }
  return found;
}

const btc = currency('btc');
const eth = currency('eth');
const price = {
  rate: new Decimal('19.8'),
  amountTo: new Decimal('1.98'),
  networkFee: new Decimal('0.0006'),
};
const refusal = expect.objectContaining({
  code: -32602,
  message: 'rateId was expired or already used',
});

describe(RateBook.name, () => {
  let sut: RateBook;

  beforeEach(() => {
    sut = new RateBook(new SeededRandom(42), TTL_MS);
  });

  it('locks the quoted price under a fresh id until ttl', () => {
    const rate = sut.issue(btc, eth, new Decimal('0.1'), price, T0);

    expect(rate).toMatchObject({
      from: 'btc',
      to: 'eth',
      amountFrom: new Decimal('0.1'),
      amountTo: price.amountTo,
      expiresAtMs: T0 + TTL_MS,
      used: false,
    });
    expect(rate.id).toMatch(/^[a-z0-9]{32}$/);
    expect(sut.redeemable(rate.id, T0 + TTL_MS - 1)).toBe(rate);
  });

  it('refuses a rate at its expiry, after its one use, and an id it never issued', () => {
    const expiring = sut.issue(btc, eth, new Decimal('0.1'), price, T0);
    const used = sut.issue(btc, eth, new Decimal('0.1'), price, T0);
    sut.redeem(used);

    expect(() => sut.redeemable(expiring.id, T0 + TTL_MS)).toThrow(refusal);
    expect(() => sut.redeemable(used.id, T0)).toThrow(refusal);
    expect(() => sut.redeemable('unknown', T0)).toThrow(refusal);
    expect(() => sut.redeemable(undefined, T0)).toThrow(refusal);
  });

  it('forgets every rate on clear', () => {
    const rate = sut.issue(btc, eth, new Decimal('0.1'), price, T0);
    sut.clear();

    expect(() => sut.redeemable(rate.id, T0)).toThrow(refusal);
  });

  it('holds a transaction to the quoted pair and amount', () => {
    const rate = sut.issue(btc, eth, new Decimal('0.1'), price, T0);

    expect(() => checkQuotedPair(rate, btc, eth)).not.toThrow();
    expect(() => checkQuotedPair(rate, eth, btc)).toThrow(
      expect.objectContaining({
        code: -32602,
        message: 'Invalid currency pair: it does not match the rateId',
      }),
    );
    expect(() => checkQuotedAmount(rate, new Decimal('0.10'))).not.toThrow();
    expect(() => checkQuotedAmount(rate, new Decimal('0.11'))).toThrow(
      expect.objectContaining({
        code: -32602,
        message: 'Invalid amount: amountFrom does not match the quoted amount',
      }),
    );
  });
});
