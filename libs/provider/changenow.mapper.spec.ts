import { retryAfterMs } from './changenow.client.js';
import { readExchange, toSwapStatus } from './changenow.mapper.js';

const EXCHANGE = {
  id: '0123456789abcd',
  status: 'expired',
  fromCurrency: 'btc',
  fromNetwork: 'btc',
  toCurrency: 'usdt',
  toNetwork: 'trx',
  expectedAmountFrom: '0.1',
  expectedAmountTo: '6400.5',
  amountFrom: null,
  amountTo: null,
  payinAddress: 'payin',
  payoutAddress: 'payout',
  refundAddress: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T03:00:00.000Z',
  depositReceivedAt: null,
  payinHash: null,
  payoutHash: null,
  validUntil: null,
  payload: null,
};

describe(toSwapStatus.name, () => {
  it.each([
    ['new', 'standard', 'waiting'],
    ['waiting', 'fixed-rate', 'waiting'],
    ['verifying', 'standard', 'hold'],
    ['expired', 'standard', 'overdue'],
    ['expired', 'fixed-rate', 'expired'],
    ['refunded', 'fixed-rate', 'refunded'],
  ] as const)('reads %s of a %s exchange as %s', (status, flow, expected) => {
    expect(toSwapStatus(status, flow)).toBe(expected);
  });
});

describe(readExchange.name, () => {
  it('takes an exchange without a flow for fixed-rate when it has a deposit deadline', () => {
    expect(readExchange(EXCHANGE)).toMatchObject({
      from: 'btc',
      to: 'usdtrx',
      status: 'overdue',
      payTill: null,
      userMetadata: null,
    });
    expect(readExchange({ ...EXCHANGE, validUntil: '2026-01-01T00:20:00.000Z' })).toMatchObject({
      status: 'expired',
      payTill: '2026-01-01T00:20:00.000Z',
    });
  });

  it('refuses a currency the table does not know', () => {
    expect(() => readExchange({ ...EXCHANGE, toNetwork: 'sol' })).toThrow(/unknown currency/);
  });
});

describe(retryAfterMs.name, () => {
  const now = Date.parse('2026-01-01T00:00:00.000Z');

  it.each([
    ['5', 5000],
    ['0', 1000],
    ['Thu, 01 Jan 2026 00:00:04 GMT', 4000],
    ['soon', 1000],
    [undefined, 1000],
  ])('reads Retry-After %s as %d ms', (header, ms) => {
    expect(retryAfterMs(header, now)).toBe(ms);
  });
});
