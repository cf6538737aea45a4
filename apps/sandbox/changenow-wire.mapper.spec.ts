import { Decimal } from 'decimal.js';
import { PROVIDER_STATUSES } from '#app/domain';
import { CATALOGUE, type SandboxCurrency } from './catalogue.js';
import { toChangeNowExchange, toChangeNowStatus } from './changenow-wire.mapper.js';
import type { SandboxTransaction } from './sandbox-transaction.js';

const T0 = 1_700_000_000_250;

function currency(ticker: string): SandboxCurrency {
  const found = CATALOGUE.find((c) => c.ticker === ticker);
  if (!found) {
    throw new Error(ticker);
  }
  return found;
}

describe(toChangeNowStatus.name, () => {
  it.each([
    ['new', 'new'],
    ['waiting', 'waiting'],
    ['hold', 'verifying'],
    ['overdue', 'expired'],
    ['expired', 'expired'],
    ['finished', 'finished'],
    ['refunded', 'refunded'],
  ] as const)('says %s as %s', (status, word) => {
    expect(toChangeNowStatus(status)).toBe(word);
  });

  it('has a word for every status the sandbox keeps', () => {
    for (const status of PROVIDER_STATUSES) {
      expect(toChangeNowStatus(status)).toEqual(expect.any(String));
    }
  });
});

describe(toChangeNowExchange.name, () => {
  it('names currencies by ticker and network and writes amounts as exact JSON numbers', () => {
    const tx: SandboxTransaction = {
      id: '0123456789abcd',
      provider: 'changenow',
      type: 'float',
      from: currency('usdt20'),
      to: currency('dai'),
      payinAddress: 'payin',
      payoutAddress: 'payout',
      refundAddress: null,
      userMetadata: null,
      payload: { userMetadata: 'attempt:x' },
      amountExpectedFrom: new Decimal('100'),
      amountExpectedTo: new Decimal('97.123456789012345678'),
      networkFee: new Decimal('2.5'),
      rate: new Decimal('1'),
      createdAtMs: T0,
      payTillMs: null,
      status: 'hold',
      statusSinceMs: T0 + 1000,
      clock: null,
      deposit: null,
      payout: null,
      moneySentMs: null,
      refundHash: null,
    };

    const json = JSON.stringify(toChangeNowExchange(tx));

    expect(JSON.parse(json)).toMatchObject({
      fromCurrency: 'usdt',
      fromNetwork: 'eth',
      toCurrency: 'dai',
      toNetwork: 'eth',
      flow: 'standard',
      status: 'verifying',
      updatedAt: new Date(T0 + 1000).toISOString(),
      amountFrom: null,
      validUntil: null,
      payload: { userMetadata: 'attempt:x' },
    });
    expect(json).toContain('"expectedAmountTo":97.123456789012345678');
  });
});
