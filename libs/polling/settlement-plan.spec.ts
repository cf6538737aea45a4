import type { ProviderTransaction } from '#app/provider';
import type { PolledSwap } from '#app/swaps';
import { providerTransaction } from '#test/factories';
import { changesSwap, planSettlement } from './settlement-plan.js';

function storedSwap(overrides: Partial<PolledSwap> = {}): PolledSwap {
  return {
    id: '0123456789abcdef',
    livemode: true,
    provider: 'changelly',
    organizationId: '00000000-0000-4000-8000-000000000001',
    providerTransactionId: 'tx1',
    status: 'waiting',
    mode: 'float',
    from: 'btc',
    to: 'eth',
    amountFrom: '0.5',
    amountExpectedTo: '10',
    networkFee: '0.001',
    rate: '20',
    payinAddress: 'payin',
    payoutAddress: 'payout',
    refundAddress: null,
    partnerReferenceId: null,
    payTill: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    payinHash: null,
    payoutHash: null,
    refundHash: null,
    amountActualFrom: null,
    amountActualTo: null,
    actualNetworkFee: null,
    moneyReceivedAt: null,
    moneySentAt: null,
    amountAnomalyPct: null,
    ...overrides,
  };
}

/** The provider's report of transaction tx1, 0.5 BTC to ETH, unless `overrides` say else. */
function report(overrides: Partial<ProviderTransaction> = {}): ProviderTransaction {
  return providerTransaction({
    id: 'tx1',
    amountExpectedFrom: '0.5',
    amountExpectedTo: '10',
    networkFee: '0.001',
    rate: '20',
    ...overrides,
  });
}

describe(planSettlement.name, () => {
  const sut = planSettlement;

  it('fills settlement fields as the provider reports them, with the anomaly percent', () => {
    const plan = sut(
      storedSwap(),
      report({
        status: 'finished',
        payinHash: 'in',
        payoutHash: 'out',
        amountActualFrom: '0.6',
        amountActualTo: '11.9',
        actualNetworkFee: '0.001',
        moneyReceivedAt: '2025-01-01T00:01:00.000Z',
        moneySentAt: '2025-01-01T00:02:00.000Z',
      }),
    );

    expect(plan).toEqual({
      kind: 'update',
      from: 'waiting',
      to: 'finished',
      fields: {
        payinHash: 'in',
        payoutHash: 'out',
        refundHash: null,
        amountActualFrom: '0.6',
        amountActualTo: '11.9',
        actualNetworkFee: '0.001',
        moneyReceivedAt: '2025-01-01T00:01:00.000Z',
        moneySentAt: '2025-01-01T00:02:00.000Z',
        amountAnomalyPct: '20',
      },
    });
  });

  it("keeps the refund's hash once the provider reports it", () => {
    const plan = sut(storedSwap(), report({ status: 'refunded', refundHash: 'back' }));

    expect(plan).toMatchObject({ kind: 'update', to: 'refunded', fields: { refundHash: 'back' } });
    expect(
      sut(storedSwap({ status: 'refunded', refundHash: 'back' }), report({ status: 'refunded' })),
    ).toMatchObject({ fields: { refundHash: 'back' } });
  });

  it('never erases a known field with a missing one', () => {
    const received = '2025-01-01T00:01:00.000Z';
    const plan = sut(
      storedSwap({
        status: 'confirming',
        payinHash: 'in',
        amountActualFrom: '0.5',
        moneyReceivedAt: received,
      }),
      report({ status: 'exchanging' }),
    );

    expect(plan).toMatchObject({
      kind: 'update',
      to: 'exchanging',
      fields: { payinHash: 'in', amountActualFrom: '0.5', moneyReceivedAt: received },
    });
  });

  it('keeps the status when the provider reports the same one', () => {
    expect(sut(storedSwap({ status: 'hold' }), report({ status: 'hold' }))).toMatchObject({
      kind: 'update',
      from: 'hold',
      to: 'hold',
    });
  });

  it('ignores a report that moves backwards', () => {
    expect(
      sut(storedSwap({ status: 'sending' }), report({ status: 'confirming', payinHash: 'x' })),
    ).toEqual({ kind: 'violation', from: 'sending', to: 'confirming' });
  });
});

describe(changesSwap.name, () => {
  const sut = changesSwap;
  const stored = storedSwap({
    status: 'confirming',
    amountActualFrom: '0.50',
    moneyReceivedAt: '2025-01-01T00:01:00.000Z',
    amountAnomalyPct: '0',
  });

  it('sees no change in the same instant or amount written another way', () => {
    const plan = planSettlement(
      stored,
      report({
        status: 'confirming',
        amountActualFrom: '0.5',
        moneyReceivedAt: '2025-01-01T01:01:00.000+01:00',
      }),
    );

    expect(plan.kind === 'update' && sut(stored, plan)).toBe(false);
  });

  it('sees a new status, a later instant or a new hash', () => {
    for (const change of [
      { status: 'exchanging' as const },
      { moneyReceivedAt: '2025-01-01T00:01:00.001Z' },
      { payinHash: 'in' },
    ]) {
      const plan = planSettlement(stored, report({ status: 'confirming', ...change }));
      expect([change, plan.kind === 'update' && sut(stored, plan)]).toEqual([change, true]);
    }
  });
});
