import { Test } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { TERMINAL_STATUSES, type SwapStatus } from '#app/domain';
import {
  LIQUIDITY_PROVIDERS,
  LiquidityProviders,
  unavailable,
  type LiquidityProvider,
  type ProviderTransaction,
  type TransactionQuery,
} from '#app/provider';
import { EventRecorder } from '#app/events';
import type { SwapEntity } from '#app/persistence';
import { SwapsRepository, type PolledUpdate, type RefreshedSwap } from '#app/swaps';
import { EarningsRepository, type PendingEarnings } from '#app/earnings';
import { PollCyclesRepository, type PollCycle } from './poll-cycles.repository.js';
import { PollMetrics } from './poll-metrics.js';
import { SwapRefresher } from './swap-refresher.js';
import {
  POLLING_OPTIONS,
  SwapPollingService,
  type PollingOptions,
  type PollLane,
} from './swap-polling.service.js';
import { UsdPricer } from './usd-pricer.js';

const OPTIONS: PollingOptions = {
  pollIntervalMs: 30_000,
  testPollIntervalMs: 2_000,
  leaseMs: 60_000,
  batchSize: 25,
};

interface Row {
  swap: RefreshedSwap;
  leaseOwner: string | null;
  seen: boolean;
  /** Set by a reschedule: due again this long after it. */
  dueInMs: number | null;
  events: { from: SwapStatus; to: SwapStatus }[];
}

/** `swaps` as the poller sees it, in memory, with the repository's lease rules. */
class FakeSwaps {
  readonly rows: Row[] = [];
  readonly reschedules: { owner: string; ids: string[]; delayMs: number }[] = [];

  add(swap: Partial<RefreshedSwap> & { id: string; livemode: boolean }): void {
    this.rows.push({
      swap: {
        organizationId: 'org-1',
        providerTransactionId: `tx-${swap.id}`,
        status: 'waiting',
        from: 'btc',
        amountFrom: '0.1',
        payinHash: null,
        payoutHash: null,
        amountActualFrom: null,
        amountActualTo: null,
        actualNetworkFee: null,
        moneyReceivedAt: null,
        moneySentAt: null,
        amountAnomalyPct: null,
        feePercent: '0.5',
        lagMs: 0,
        ...swap,
      },
      leaseOwner: null,
      seen: false,
      dueInMs: null,
      events: [],
    });
  }

  row(id: string): Row {
    const row = this.rows.find((r) => r.swap.id === id);
    if (!row) {
      throw new Error(`no swap ${id}`);
    }
    return row;
  }

  private active(livemode: boolean): Row[] {
    return this.rows.filter(
      (r) => r.swap.livemode === livemode && !TERMINAL_STATUSES.includes(r.swap.status),
    );
  }

  oldestActiveCreatedAt(livemode: boolean): Promise<Date | null> {
    return Promise.resolve(this.active(livemode).length > 0 ? new Date('2026-01-01') : null);
  }

  findActiveByProviderIds(ids: string[], livemode: boolean): Promise<RefreshedSwap[]> {
    return Promise.resolve(
      this.active(livemode)
        .filter((r) => ids.includes(r.swap.providerTransactionId))
        .map((r) => ({ ...r.swap })),
    );
  }

  markSeen(ids: string[]): Promise<number[]> {
    for (const id of ids) {
      this.row(id).seen = true;
    }
    return Promise.resolve(ids.map(() => 0));
  }

  claimUnseen(owner: string, livemode: boolean, limit: number): Promise<RefreshedSwap[]> {
    const due = this.active(livemode)
      .filter((r) => !r.seen && r.leaseOwner === null && r.dueInMs === null)
      .slice(0, limit);
    for (const row of due) {
      row.leaseOwner = owner;
    }
    return Promise.resolve(due.map((r) => ({ ...r.swap })));
  }

  extendLeases(): Promise<void> {
    return Promise.resolve();
  }

  applyPolledUpdate(
    _manager: unknown,
    owner: string | null,
    swap: RefreshedSwap,
    update: PolledUpdate,
  ): Promise<SwapEntity | null> {
    const row = this.row(swap.id);
    if (row.swap.status !== swap.status || (owner !== null && row.leaseOwner !== owner)) {
      return Promise.resolve(null);
    }
    Object.assign(row.swap, { status: update.status, ...update.fields });
    if (update.transition) {
      row.events.push({ from: update.transition.from, to: update.transition.to });
    }
    row.leaseOwner = null;
    row.seen = true;
    return Promise.resolve({
      ...row.swap,
      createdAt: new Date('2026-01-01'),
    } as unknown as SwapEntity);
  }

  reschedule(owner: string, ids: string[], delayMs: number): Promise<void> {
    if (ids.length > 0) {
      this.reschedules.push({ owner, ids: [...ids], delayMs });
    }
    for (const row of this.rows.filter((r) => ids.includes(r.swap.id))) {
      if (row.leaseOwner === owner) {
        Object.assign(row, { leaseOwner: null, dueInMs: delayMs });
      }
    }
    return Promise.resolve();
  }
}

/** One cycle per lane whose listing has `pages` pages; `listingOver` once all were answered. */
class FakeCycles {
  readonly pagesDone: { lane: string; page: number; last: boolean }[] = [];
  private nextPage = 0;
  private endPage: number | null = null;

  constructor(private readonly listing: 'pending' | 'over') {}

  current(_lane: string, _intervalMs: number, _leaseMs: number, since: Date | null) {
    const cycle: PollCycle = {
      number: 1,
      startedAt: new Date(),
      since,
      listingOver: this.listing === 'over',
    };
    return Promise.resolve(cycle);
  }

  claimPage(): Promise<number | null> {
    if (this.endPage !== null && this.nextPage > this.endPage) {
      return Promise.resolve(null);
    }
    return Promise.resolve(this.nextPage++);
  }

  pageDone(lane: string, _cycle: number, page: number, last: boolean): Promise<void> {
    this.pagesDone.push({ lane, page, last });
    if (last) {
      this.endPage = Math.min(this.endPage ?? page, page);
    }
    return Promise.resolve();
  }

  isListingOver(): Promise<boolean> {
    return Promise.resolve(this.listing === 'over');
  }
}

/** The earnings queue: what write-backs added (kept), what was booked or given back. */
class FakeEarnings {
  readonly pending: PendingEarnings[] = [];
  readonly booked: { owner: string; swapId: string; usdPrice: string }[] = [];
  readonly released: string[] = [];
  claims = 0;
  private claimed = 0;

  addPendingWithin(_manager: unknown, entry: PendingEarnings): Promise<void> {
    this.pending.push(entry);
    return Promise.resolve();
  }

  claimPending(): Promise<PendingEarnings[]> {
    this.claims += 1;
    const unclaimed = this.pending.slice(this.claimed);
    this.claimed = this.pending.length;
    return Promise.resolve(unclaimed);
  }

  bookPending(owner: string, entry: { swapId: string; usdPrice: string }) {
    this.booked.push({ owner, swapId: entry.swapId, usdPrice: entry.usdPrice });
    return Promise.resolve({ earningsBooked: true, payoutCreated: false });
  }

  releasePending(_owner: string, swapIds: string[]): Promise<void> {
    this.released.push(...swapIds);
    return Promise.resolve();
  }
}

/** The partner events the refresher records: one per transition, with the swap as written. */
class FakeEvents {
  readonly changed: { swapId: string; status: string; previousStatus: string }[] = [];

  swapStatusChanged(
    _manager: unknown,
    _organizationId: string,
    swap: { id: string; status: string },
    previousStatus: string,
  ): Promise<void> {
    this.changed.push({ swapId: swap.id, status: swap.status, previousStatus });
    return Promise.resolve();
  }
}

/** A provider that reports a status per transaction, and fails the calls the test says. */
class ScriptedProvider implements Partial<LiquidityProvider> {
  readonly calls: TransactionQuery[] = [];
  readonly statuses = new Map<string, SwapStatus>();
  /** Called before each answer with the call's index; an error it returns is the call's failure. */
  beforeAnswer: (call: number) => Error | undefined = () => undefined;

  constructor(readonly id: string) {}

  getTransactions(query: TransactionQuery): Promise<ProviderTransaction[]> {
    this.calls.push(query);
    const failure = this.beforeAnswer(this.calls.length - 1);
    if (failure) {
      return Promise.reject(failure);
    }
    const ids =
      'ids' in query
        ? query.ids
        : [...this.statuses.keys()].slice(
            query.offset ?? 0,
            (query.offset ?? 0) + (query.limit ?? 10),
          );
    return Promise.resolve(
      ids.filter((id) => this.statuses.has(id)).map((id) => report(id, this.statuses.get(id))),
    );
  }
}

function report(id: string, status: SwapStatus | undefined): ProviderTransaction {
  const finished = status === 'finished';
  return {
    id,
    status: status ?? 'waiting',
    from: 'btc',
    to: 'eth',
    payinAddress: 'payin',
    payoutAddress: 'payout',
    refundAddress: null,
    userMetadata: null,
    amountExpectedFrom: '0.1',
    amountExpectedTo: '1.5',
    networkFee: '0.002',
    rate: '15',
    payTill: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    payinHash: finished ? 'in' : null,
    payoutHash: finished ? 'out' : null,
    amountActualFrom: finished ? '0.1' : null,
    amountActualTo: finished ? '1.5' : null,
    actualNetworkFee: null,
    moneyReceivedAt: null,
    moneySentAt: null,
  };
}

async function counter(metric: { get(): Promise<{ values: { value: number }[] }> }) {
  return (await metric.get()).values.reduce((sum, v) => sum + v.value, 0);
}

describe(SwapPollingService.name, () => {
  let swaps: FakeSwaps;
  let earnings: FakeEarnings;
  let events: FakeEvents;
  let live: ScriptedProvider;
  let test: ScriptedProvider;
  let metrics: PollMetrics;
  let prices: Map<string, string | Error>;

  async function poller(
    listing: 'pending' | 'over',
    testProvider: ScriptedProvider | null = test,
  ): Promise<{ sut: SwapPollingService; cycles: FakeCycles }> {
    const cycles = new FakeCycles(listing);
    const moduleRef = await Test.createTestingModule({
      providers: [
        SwapPollingService,
        SwapRefresher,
        { provide: SwapsRepository, useValue: swaps },
        { provide: PollCyclesRepository, useValue: cycles },
        { provide: EarningsRepository, useValue: earnings },
        { provide: EventRecorder, useValue: events },
        {
          provide: UsdPricer,
          useValue: {
            usdPrice: (ticker: string) => {
              const price = prices.get(ticker) ?? '1';
              return price instanceof Error ? Promise.reject(price) : Promise.resolve(price);
            },
          },
        },
        { provide: PollMetrics, useValue: metrics },
        {
          provide: LIQUIDITY_PROVIDERS,
          useValue: new LiquidityProviders(
            live as unknown as LiquidityProvider,
            testProvider as unknown as LiquidityProvider | null,
          ),
        },
        {
          provide: getDataSourceToken(),
          useValue: { transaction: <T>(work: (manager: object) => Promise<T>) => work({}) },
        },
        { provide: POLLING_OPTIONS, useValue: OPTIONS },
      ],
    }).compile();
    return { sut: moduleRef.get(SwapPollingService), cycles };
  }

  const lane = (sut: SwapPollingService, name: PollLane['name']): PollLane => {
    const found = sut.lanes.find((l) => l.name === name);
    if (!found) {
      throw new Error(`no ${name} lane`);
    }
    return found;
  };

  beforeEach(() => {
    swaps = new FakeSwaps();
    earnings = new FakeEarnings();
    events = new FakeEvents();
    live = new ScriptedProvider('live');
    test = new ScriptedProvider('test');
    metrics = new PollMetrics();
    prices = new Map();
  });

  describe('lanes', () => {
    it('serves only the live lane without a test provider', async () => {
      const { sut } = await poller('over', null);

      expect(sut.lanes.map((l) => [l.name, l.livemode, l.intervalMs])).toEqual([
        ['live', true, 30_000],
      ]);
    });

    it("refreshes each mode's swaps from that mode's own provider", async () => {
      swaps.add({ id: 'live-1', livemode: true });
      swaps.add({ id: 'test-1', livemode: false });
      live.statuses.set('tx-live-1', 'confirming');
      test.statuses.set('tx-test-1', 'exchanging');
      const { sut } = await poller('over');
      expect(sut.lanes.map((l) => [l.name, l.livemode, l.intervalMs])).toEqual([
        ['live', true, 30_000],
        ['test', false, 2_000],
      ]);

      await sut.pollDue(lane(sut, 'test'), 'poller-a');

      expect(test.calls).toEqual([{ ids: ['tx-test-1'] }]);
      expect(live.calls).toEqual([]);
      expect(swaps.row('test-1').swap.status).toBe('exchanging');
      expect(swaps.row('live-1').swap.status).toBe('waiting');
      // Test swaps never earn: the test lane does not touch the earnings queue.
      expect(earnings.claims).toBe(0);

      await sut.pollDue(lane(sut, 'live'), 'poller-a');

      expect(live.calls).toEqual([{ ids: ['tx-live-1'] }]);
      expect(test.calls).toHaveLength(1);
      expect(swaps.row('live-1').swap.status).toBe('confirming');
      expect(earnings.claims).toBe(1);
    });
  });

  describe('a lease lost before write-back', () => {
    it('writes nothing: no status, no event, no earnings', async () => {
      swaps.add({ id: 's1', livemode: true });
      live.statuses.set('tx-s1', 'finished');
      // While the provider answers, the lease runs out and another poller claims the swap.
      live.beforeAnswer = () => {
        swaps.row('s1').leaseOwner = 'poller-b';
        return undefined;
      };
      const { sut } = await poller('over');

      const report = await sut.pollDue(lane(sut, 'live'), 'poller-a');

      expect(live.calls).toHaveLength(1);
      expect(swaps.row('s1')).toMatchObject({
        swap: { status: 'waiting', payoutHash: null, amountActualFrom: null },
        leaseOwner: 'poller-b',
        seen: false,
        events: [],
      });
      expect(earnings.pending).toEqual([]);
      expect(report).toEqual({ refreshed: 0, calls: 1 });
      expect(await counter(metrics.leaseLost)).toBe(1);
    });

    it('is the only swap of its group left out', async () => {
      swaps.add({ id: 's1', livemode: true });
      swaps.add({ id: 's2', livemode: true });
      live.statuses.set('tx-s1', 'finished');
      live.statuses.set('tx-s2', 'finished');
      live.beforeAnswer = () => {
        swaps.row('s1').leaseOwner = 'poller-b';
        return undefined;
      };
      const { sut } = await poller('over');

      const report = await sut.pollDue(lane(sut, 'live'), 'poller-a');

      expect(swaps.row('s1').swap.status).toBe('waiting');
      expect(swaps.row('s2').swap.status).toBe('finished');
      expect(swaps.row('s2').events).toEqual([{ from: 'waiting', to: 'finished' }]);
      expect(events.changed).toEqual([
        { swapId: 's2', status: 'finished', previousStatus: 'waiting' },
      ]);
      expect(earnings.pending.map((e) => e.swapId)).toEqual(['s2']);
      expect(report.refreshed).toBe(1);
    });
  });

  describe('a provider error mid-batch', () => {
    it('reschedules the failing call and the rest of its batch, and keeps what was written', async () => {
      for (let i = 0; i < 25; i++) {
        swaps.add({ id: `s${i}`, livemode: true });
        live.statuses.set(`tx-s${i}`, 'confirming');
      }
      live.beforeAnswer = (call) =>
        call === 1 ? unavailable('getTransactions', 'timeout after 1000 ms') : undefined;
      const { sut } = await poller('over');

      const report = await sut.pollDue(lane(sut, 'live'), 'poller-a');

      // Ten ids per call: the second call failed, the third was never made.
      expect(live.calls).toHaveLength(2);
      expect(report).toEqual({ refreshed: 10, calls: 2 });
      const written = swaps.rows.slice(0, 10);
      const deferred = swaps.rows.slice(10);
      expect(written.map((r) => [r.swap.status, r.events.length])).toEqual(
        Array(10).fill(['confirming', 1]),
      );
      // Due again an interval later, leases given back, nothing written.
      expect(
        deferred.map((r) => [r.swap.status, r.events.length, r.leaseOwner, r.dueInMs]),
      ).toEqual(Array(15).fill(['waiting', 0, null, 30_000]));
      expect(swaps.reschedules).toEqual([
        { owner: 'poller-a', ids: deferred.map((r) => r.swap.id), delayMs: 30_000 },
      ]);
    });

    it('gives every lease of the batch back at once when the failure is not the provider', async () => {
      for (let i = 0; i < 15; i++) {
        swaps.add({ id: `s${i}`, livemode: true });
        live.statuses.set(`tx-s${i}`, 'confirming');
      }
      live.beforeAnswer = (call) => (call === 1 ? new Error('Connection terminated') : undefined);
      const { sut } = await poller('over');

      await expect(sut.pollDue(lane(sut, 'live'), 'poller-a')).rejects.toThrow(
        'Connection terminated',
      );

      expect(swaps.rows.slice(10).map((r) => [r.leaseOwner, r.dueInMs])).toEqual(
        Array(5).fill([null, 0]),
      );
      expect(swaps.rows.slice(0, 10).map((r) => r.swap.status)).toEqual(
        Array(10).fill('confirming'),
      );
    });

    it('ends the listing at a failed page and keeps the pages before it', async () => {
      for (let i = 0; i < 150; i++) {
        swaps.add({ id: `s${i}`, livemode: true });
        live.statuses.set(`tx-s${i}`, i < 100 ? 'confirming' : 'exchanging');
      }
      live.beforeAnswer = (call) =>
        call === 1 ? unavailable('getTransactions', 'HTTP 502') : undefined;
      const { sut, cycles } = await poller('pending');

      const report = await sut.pollDue(lane(sut, 'live'), 'poller-a');

      expect(live.calls.map((q) => ('offset' in q ? q.offset : null))).toEqual([0, 100]);
      expect(cycles.pagesDone).toEqual([
        { lane: 'live', page: 0, last: false },
        { lane: 'live', page: 1, last: true },
      ]);
      expect(report).toEqual({ refreshed: 100, calls: 2 });
      expect(swaps.rows.map((r) => r.swap.status)).toEqual([
        ...Array(100).fill('confirming'),
        ...Array(50).fill('waiting'),
      ]);
    });
  });

  it('asks again an interval later for a swap the provider did not report', async () => {
    swaps.add({ id: 's1', livemode: true });
    const { sut } = await poller('over');

    const report = await sut.pollDue(lane(sut, 'live'), 'poller-a');

    expect(report).toEqual({ refreshed: 0, calls: 1 });
    expect(swaps.row('s1')).toMatchObject({ leaseOwner: null, dueInMs: 30_000 });
    expect(await counter(metrics.unknownTransactions)).toBe(1);
  });

  describe('earnings', () => {
    it('books what finished at its price, and queues again what cannot be priced', async () => {
      swaps.add({ id: 'btc-1', livemode: true, from: 'btc' });
      swaps.add({ id: 'ltc-1', livemode: true, from: 'ltc' });
      live.statuses.set('tx-btc-1', 'finished');
      live.statuses.set('tx-ltc-1', 'finished');
      prices.set('btc', '60000');
      prices.set('ltc', unavailable('getExchangeAmount', 'HTTP 502'));
      const { sut } = await poller('over');

      await sut.pollDue(lane(sut, 'live'), 'poller-a');

      // Both statuses were written whatever pricing did.
      expect(swaps.rows.map((r) => r.swap.status)).toEqual(['finished', 'finished']);
      expect(earnings.booked).toEqual([{ owner: 'poller-a', swapId: 'btc-1', usdPrice: '60000' }]);
      expect(earnings.released).toEqual(['ltc-1']);
    });
  });
});
