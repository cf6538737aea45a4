import { Decimal } from 'decimal.js';
import type { ProviderName, SwapMode } from '#app/domain';
import { validateAddress } from '#app/chains';
import { AppError, ErrorCode } from '#app/errors';
import { CATALOGUE, type SandboxCurrency } from './catalogue.js';
import { LifecycleClock } from './lifecycle.clock.js';
import { Market } from './market.js';
import type { SandboxTransaction } from './sandbox-transaction.js';
import { SeededRandom } from './seeded-random.js';
import { SpreadBook } from './spread.book.js';
import { TransactionBook, type TransactionsQuery } from './transaction.book.js';

const T0 = 1_700_000_000_000;
const STEP_MS = 1000;
const FLOAT_WINDOW_MS = 10_000;

function currency(ticker: string): SandboxCurrency {
  const found = CATALOGUE.find((c) => c.ticker === ticker);
  if (!found) {
    throw new Error(ticker);
  }
  return found;
}

const btc = currency('btc');
const eth = currency('eth');
const anyQuery: TransactionsQuery = {
  provider: 'changelly',
  ids: null,
  payoutAddress: null,
  statuses: null,
  sinceMs: null,
  untilMs: null,
  limit: 10,
  offset: 0,
};

function appError(act: () => unknown): { code: ErrorCode; param: string | null } {
  try {
    act();
  } catch (error: unknown) {
    if (error instanceof AppError) {
      return { code: error.code, param: error.param };
    }
    throw error;
  }
  throw new Error('no error');
}

describe(TransactionBook.name, () => {
  let market: Market;
  let sut: TransactionBook;

  beforeEach(() => {
    market = new Market(CATALOGUE, 42, 60_000, T0, new SpreadBook(CATALOGUE, 42));
    sut = new TransactionBook(
      new SeededRandom(42),
      market,
      new LifecycleClock({ stepMs: STEP_MS, floatWindowMs: FLOAT_WINDOW_MS }),
    );
  });

  function open(
    type: SwapMode,
    payoutAddress = 'payout',
    now = T0,
    provider: ProviderName = 'changelly',
  ): SandboxTransaction {
    return sut.open(
      {
        provider,
        type,
        from: btc,
        to: eth,
        payoutAddress,
        refundAddress: null,
        userMetadata: null,
        payload: null,
        amountExpectedFrom: new Decimal('0.1'),
        amountExpectedTo: new Decimal('2'),
        networkFee: new Decimal('0.0006'),
        rate: new Decimal('20'),
        payTillMs: type === 'fixed' ? now + 5000 : null,
      },
      now,
    );
  }

  it('opens a transaction awaiting its deposit at a payin address on the source chain', () => {
    const tx = open('float');

    expect(tx).toMatchObject({ status: 'new', createdAtMs: T0, deposit: null, payout: null });
    expect(tx.id).toMatch(/^[a-z0-9]{16}$/);
    expect(validateAddress('bitcoin', tx.payinAddress).valid).toBe(true);
  });

  describe('deposit', () => {
    it('starts the lifecycle on a full deposit and settles the expected payout', () => {
      const tx = open('fixed');

      sut.deposit(tx.id, undefined, false, T0 + 100);

      expect(tx).toMatchObject({
        status: 'confirming',
        clock: { step: 'confirming', sinceMs: T0 + 100 },
        deposit: { amount: new Decimal('0.1'), atMs: T0 + 100 },
        payout: { amount: new Decimal('2') },
      });
      expect(tx.deposit?.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(tx.payout?.hash).toMatch(/^0x[0-9a-f]{64}$/);
    });

    it('pays a larger fixed deposit at the locked rate, net of the network fee', () => {
      const tx = open('fixed');

      sut.deposit(tx.id, '0.2', false, T0 + 100);

      expect(tx.status).toBe('confirming');
      expect(tx.payout?.amount.toFixed()).toBe('3.9994');
    });

    it('pays a smaller float deposit at the market, net of the network fee', () => {
      const tx = open('float');
      const now = T0 + 100;

      sut.deposit(tx.id, '0.05', false, now);

      const gross = market.floatPrice('changelly', btc, eth, new Decimal('0.05'), now).amountTo;
      expect(tx.status).toBe('confirming');
      expect(tx.payout?.amount.toFixed()).toBe(gross.minus('0.0006').toFixed());
    });

    it('expires a fixed swap on a short deposit, with nothing to pay out', () => {
      const tx = open('fixed');

      sut.deposit(tx.id, '0.09', false, T0 + 100);

      expect(tx).toMatchObject({ status: 'expired', clock: null, payout: null });
      expect(tx.deposit?.amount.toFixed()).toBe('0.09');
    });

    it('marks a float swap overdue on a late deposit', () => {
      const tx = open('float');

      sut.deposit(tx.id, undefined, true, T0 + 100);

      expect(tx).toMatchObject({ status: 'overdue', clock: null, payout: null });
    });

    it('refuses a swap no longer awaiting a deposit, and an unknown id', () => {
      const tx = open('float');
      sut.deposit(tx.id, undefined, false, T0);

      expect(appError(() => sut.deposit(tx.id, undefined, false, T0))).toEqual({
        code: ErrorCode.InvalidRequest,
        param: 'id',
      });
      expect(appError(() => sut.deposit('nope', undefined, false, T0))).toEqual({
        code: ErrorCode.NotFound,
        param: 'id',
      });
    });
  });

  describe('force', () => {
    it('supplies the deposit and payout a forced lifecycle step implies', () => {
      const tx = open('float');

      sut.force(tx.id, 'sending', T0 + 100);

      expect(tx).toMatchObject({
        status: 'sending',
        clock: { step: 'sending', sinceMs: T0 + 100 },
        deposit: { amount: new Decimal('0.1'), atMs: T0 + 100 },
        payout: { amount: new Decimal('2') },
        moneySentMs: T0 + 100,
      });
    });

    it('supplies only the deposit for refunded, and nothing for hold', () => {
      const refunded = open('float');
      const held = open('float');

      sut.force(refunded.id, 'refunded', T0);
      sut.force(held.id, 'hold', T0);

      expect(refunded).toMatchObject({ status: 'refunded', payout: null, clock: null });
      expect(refunded.deposit).not.toBeNull();
      expect(held).toMatchObject({ status: 'hold', deposit: null, payout: null, clock: null });
    });

    it('keeps the deposit already received', () => {
      const tx = open('float');
      sut.deposit(tx.id, '0.05', false, T0);
      const { deposit, payout } = tx;

      sut.force(tx.id, 'exchanging', T0 + 10);

      expect(tx.deposit).toBe(deposit);
      expect(tx.payout).toBe(payout);
    });
  });

  describe('list', () => {
    it('answers newest first, paged by offset and limit', () => {
      const ids = [open('float'), open('float'), open('float')].map((tx) => tx.id);

      expect(sut.list(anyQuery, T0).map((tx) => tx.id)).toEqual([...ids].reverse());
      expect(sut.list({ ...anyQuery, offset: 1, limit: 1 }, T0).map((tx) => tx.id)).toEqual([
        ids[1],
      ]);
    });

    it('filters by ids and by payout address', () => {
      const a = open('float', 'alice');
      const b = open('float', 'bob');
      const c = open('float', 'alice');

      expect(sut.list({ ...anyQuery, ids: [a.id, b.id, 'nope'] }, T0)).toEqual([b, a]);
      expect(sut.list({ ...anyQuery, payoutAddress: 'alice' }, T0)).toEqual([c, a]);
      expect(sut.list({ ...anyQuery, ids: [a.id], payoutAddress: 'bob' }, T0)).toEqual([]);
    });

    it('reports each transaction as of now', () => {
      const waiting = open('float');
      const running = open('fixed');
      sut.deposit(running.id, undefined, false, T0);

      const later = T0 + FLOAT_WINDOW_MS + 1;
      expect(sut.list(anyQuery, later).map((tx) => [tx.id, tx.status])).toEqual([
        [running.id, 'finished'],
        [waiting.id, 'overdue'],
      ]);
    });
  });

  it("keeps each provider's transactions to itself, ids in its style and unique across both", () => {
    const changelly = open('float');
    const changenow = open('float', 'payout', T0, 'changenow');

    expect(changenow.id).toMatch(/^[0-9a-f]{14}$/);
    expect(changenow.id).not.toBe(changelly.id);
    expect(sut.get('changenow', changelly.id, T0)).toBeNull();
    expect(sut.get('changenow', changenow.id, T0)).toBe(changenow);
    expect(sut.list(anyQuery, T0).map((tx) => tx.id)).toEqual([changelly.id]);
    expect(sut.list({ ...anyQuery, provider: 'changenow' }, T0).map((tx) => tx.id)).toEqual([
      changenow.id,
    ]);
    expect(sut.find(changenow.id, T0)).toBe(changenow);
  });

  it('lists what was created in a window, newest first', () => {
    const first = open('float', 'payout', T0, 'changenow');
    const second = open('float', 'payout', T0 + 10, 'changenow');
    open('float', 'payout', T0 + 20, 'changenow');
    const window = { ...anyQuery, provider: 'changenow' as const, sinceMs: T0, untilMs: T0 + 10 };

    expect(sut.matching(window, T0 + 30).map((tx) => tx.id)).toEqual([second.id, first.id]);
  });

  it('forgets every transaction on clear', () => {
    const tx = open('float');
    sut.clear();

    expect(sut.get('changelly', tx.id, T0)).toBeNull();
    expect(sut.list(anyQuery, T0)).toEqual([]);
  });
});
