import { Decimal } from 'decimal.js';
import { CATALOGUE, type SandboxCurrency } from './catalogue.js';
import type { SandboxTransaction } from './sandbox-transaction.js';
import {
  toTransactionView,
  toWireCreatedTransaction,
  toWireFixedQuote,
  toWireTransaction,
} from './wire.mapper.js';

/** 2023-11-14T22:13:20.250Z: a quarter second past a whole second, to show the rounding. */
const T0 = 1_700_000_000_250;

function currency(ticker: string): SandboxCurrency {
  const found = CATALOGUE.find((c) => c.ticker === ticker);
  if (!found) {
    throw new Error(ticker);
  }
  return found;
}

function transaction(overrides: Partial<SandboxTransaction> = {}): SandboxTransaction {
  return {
    id: 'tx1',
    provider: 'changelly',
    type: 'fixed',
    from: currency('btc'),
    to: currency('eth'),
    payinAddress: 'payin',
    payoutAddress: 'payout',
    refundAddress: 'refund',
    userMetadata: null,
    payload: null,
    amountExpectedFrom: new Decimal('0.1'),
    amountExpectedTo: new Decimal('1.9994'),
    networkFee: new Decimal('0.0006'),
    rate: new Decimal('20'),
    createdAtMs: T0,
    payTillMs: T0 + 1_200_000,
    status: 'new',
    statusSinceMs: T0,
    clock: null,
    deposit: null,
    payout: null,
    moneySentMs: null,
    refundHash: null,
    ...overrides,
  };
}

describe(toWireCreatedTransaction.name, () => {
  it('reports a created transaction with createdAt in microseconds and payTill as ISO', () => {
    expect(toWireCreatedTransaction(transaction())).toMatchObject({
      id: 'tx1',
      type: 'fixed',
      status: 'new',
      currencyFrom: 'btc',
      currencyTo: 'eth',
      payinExtraId: null,
      payoutExtraId: null,
      amountExpectedTo: '1.9994',
      createdAt: 1_700_000_000_250_000,
      payTill: '2023-11-14T22:33:20.250Z',
    });
    expect(toWireCreatedTransaction(transaction({ payTillMs: null })).payTill).toBeNull();
  });
});

describe(toWireTransaction.name, () => {
  it('reports a waiting transaction with createdAt in seconds and nothing moved yet', () => {
    expect(toWireTransaction(transaction())).toMatchObject({
      createdAt: 1_700_000_000,
      amountFrom: '0',
      amountTo: '0',
      payinHash: null,
      payoutHash: null,
      moneyReceived: 0,
      moneySent: 0,
    });
  });

  it('shows the deposit at once but the payout only once it is sent, in seconds', () => {
    const tx = transaction({
      deposit: { amount: new Decimal('0.1'), atMs: T0 + 1000, hash: 'in' },
      payout: { amount: new Decimal('1.9994'), hash: 'out' },
    });
    expect(toWireTransaction(tx)).toMatchObject({
      amountFrom: '0.1',
      payinHash: 'in',
      moneyReceived: 1_700_000_001,
      amountTo: '0',
      payoutHash: null,
      moneySent: 0,
    });

    tx.moneySentMs = T0 + 3000;
    expect(toWireTransaction(tx)).toMatchObject({
      amountTo: '1.9994',
      payoutHash: 'out',
      moneySent: 1_700_000_003,
    });
  });
});

describe(toTransactionView.name, () => {
  it('adds a copy of the running clock to the control view', () => {
    const tx = transaction({ status: 'confirming', clock: { step: 'confirming', sinceMs: T0 } });

    const view = toTransactionView(tx);
    tx.clock = null;

    expect(view).toMatchObject({
      status: 'confirming',
      clock: { step: 'confirming', sinceMs: T0 },
    });
  });
});

describe(toWireFixedQuote.name, () => {
  it('reports a fixed rate with expiredAt in seconds', () => {
    const rate = {
      id: 'rate1',
      from: 'btc',
      to: 'eth',
      amountFrom: new Decimal('0.1'),
      rate: new Decimal('19.8'),
      amountTo: new Decimal('1.98'),
      networkFee: new Decimal('0.0006'),
      expiresAtMs: T0 + 60_000,
      used: false,
    };
    const bounds = {
      minFloat: new Decimal('0.0002'),
      maxFloat: new Decimal('2'),
      minFixed: new Decimal('0.0004'),
      maxFixed: new Decimal('0.5'),
    };

    expect(toWireFixedQuote(rate, bounds)).toEqual({
      id: 'rate1',
      result: '19.8',
      from: 'btc',
      to: 'eth',
      amountFrom: '0.1',
      amountTo: '1.98',
      networkFee: '0.0006',
      min: '0.0004',
      max: '0.5',
      expiredAt: 1_700_000_060,
    });
  });
});
