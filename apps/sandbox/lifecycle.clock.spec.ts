import { Decimal } from 'decimal.js';
import type { SwapMode } from '#app/domain';
import { CATALOGUE, type SandboxCurrency } from './catalogue.js';
import { LifecycleClock, missedDeposit } from './lifecycle.clock.js';
import type { SandboxTransaction } from './sandbox-transaction.js';

const T0 = 1_700_000_000_000;
const STEP_MS = 1000;
const FLOAT_WINDOW_MS = 10_000;
const PAY_WINDOW_MS = 5000;

function currency(ticker: string): SandboxCurrency {
  const found = CATALOGUE.find((c) => c.ticker === ticker);
  if (!found) {
    throw new Error(ticker);
  }
  return found;
}

function transaction(type: SwapMode): SandboxTransaction {
  return {
    id: 'tx1',
    provider: 'changelly',
    type,
    from: currency('btc'),
    to: currency('eth'),
    payinAddress: 'payin',
    payoutAddress: 'payout',
    refundAddress: null,
    userMetadata: null,
    payload: null,
    amountExpectedFrom: new Decimal('0.1'),
    amountExpectedTo: new Decimal('2'),
    networkFee: new Decimal('0.0006'),
    rate: new Decimal('20'),
    createdAtMs: T0,
    payTillMs: type === 'fixed' ? T0 + PAY_WINDOW_MS : null,
    status: 'new',
    statusSinceMs: T0,
    clock: null,
    deposit: null,
    payout: null,
    moneySentMs: null,
    refundHash: null,
  };
}

describe(LifecycleClock.name, () => {
  const sut = new LifecycleClock({ stepMs: STEP_MS, floatWindowMs: FLOAT_WINDOW_MS });

  it('dates each status from when the swap entered it, a deadline from the deadline', () => {
    const running = sut.enter(transaction('float'), 'confirming', T0 + 5);
    expect(running.statusSinceMs).toBe(T0 + 5);
    expect(sut.advance(running, T0 + 5 + 2 * STEP_MS + 3).statusSinceMs).toBe(T0 + 5 + 2 * STEP_MS);
    expect(sut.advance(running, T0 + 5 + 9 * STEP_MS).statusSinceMs).toBe(T0 + 5 + 3 * STEP_MS);

    const waiting = transaction('float');
    expect(sut.advance(waiting, T0 + FLOAT_WINDOW_MS + 50)).toMatchObject({
      status: 'overdue',
      statusSinceMs: T0 + FLOAT_WINDOW_MS,
    });
  });

  it('walks a deposited swap one step per stepMs and dates the payout on entering sending', () => {
    const tx = sut.enter(transaction('float'), 'confirming', T0);

    expect(sut.advance(tx, T0 + STEP_MS - 1).status).toBe('confirming');
    expect(sut.advance(tx, T0 + STEP_MS)).toMatchObject({
      status: 'exchanging',
      moneySentMs: null,
      refundHash: null,
    });
    expect(sut.advance(tx, T0 + 2 * STEP_MS)).toMatchObject({
      status: 'sending',
      moneySentMs: T0 + 2 * STEP_MS,
    });
    expect(sut.advance(tx, T0 + 3 * STEP_MS)).toMatchObject({
      status: 'finished',
      clock: null,
      moneySentMs: T0 + 2 * STEP_MS,
    });
  });

  it('dates the payout at the entry to sending when one read skips several steps', () => {
    const tx = sut.enter(transaction('float'), 'confirming', T0);

    expect(sut.advance(tx, T0 + 60_000)).toMatchObject({
      status: 'finished',
      clock: null,
      moneySentMs: T0 + 2 * STEP_MS,
    });
  });

  it('expires a waiting fixed swap once payTill has passed, not at payTill', () => {
    const tx = transaction('fixed');

    expect(sut.advance(tx, T0 + PAY_WINDOW_MS).status).toBe('new');
    expect(sut.advance(tx, T0 + PAY_WINDOW_MS + 1).status).toBe('expired');
  });

  it('marks a waiting float swap overdue once its window has passed', () => {
    const tx = transaction('float');

    expect(sut.advance(tx, T0 + FLOAT_WINDOW_MS).status).toBe('new');
    expect(sut.advance(tx, T0 + FLOAT_WINDOW_MS + 1).status).toBe('overdue');
  });

  it('keeps a frozen status however much time passes', () => {
    const tx = sut.enter(transaction('float'), 'hold', T0);

    expect(sut.advance(tx, T0 + 3_600_000)).toMatchObject({ status: 'hold', clock: null });
  });

  it('runs on from a forced step, stamps the payout once and freezes at finished', () => {
    const tx = sut.enter(transaction('fixed'), 'exchanging', T0);
    expect(tx.clock).toEqual({ step: 'exchanging', sinceMs: T0 });

    sut.enter(tx, 'sending', T0 + 10);
    sut.enter(tx, 'finished', T0 + 20);

    expect(tx).toMatchObject({ status: 'finished', clock: null, moneySentMs: T0 + 10 });
  });
});

describe(missedDeposit.name, () => {
  it.each`
    type       | amount    | late     | afterMs              | expected
    ${'fixed'} | ${'0.1'}  | ${false} | ${1}                 | ${null}
    ${'fixed'} | ${'0.2'}  | ${false} | ${PAY_WINDOW_MS}     | ${null}
    ${'fixed'} | ${'0.09'} | ${false} | ${1}                 | ${'expired'}
    ${'fixed'} | ${'0.1'}  | ${true}  | ${1}                 | ${'expired'}
    ${'fixed'} | ${'0.1'}  | ${false} | ${PAY_WINDOW_MS + 1} | ${'expired'}
    ${'float'} | ${'0.09'} | ${false} | ${1}                 | ${null}
    ${'float'} | ${'0.1'}  | ${true}  | ${1}                 | ${'overdue'}
  `(
    'a $type swap expecting 0.1 that gets $amount $afterMs ms after creation (late: $late) → $expected',
    ({
      type,
      amount,
      late,
      afterMs,
      expected,
    }: {
      type: SwapMode;
      amount: string;
      late: boolean;
      afterMs: number;
      expected: string | null;
    }) => {
      const deposit = { amount: new Decimal(amount), atMs: T0 + afterMs, hash: 'h' };

      expect(missedDeposit(transaction(type), deposit, late)).toBe(expected);
    },
  );
});
