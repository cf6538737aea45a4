import { Test } from '@nestjs/testing';
import { POLLING_CONFIG, type PollingConfig } from '#app/config';
import { EarningsRepository } from '#app/earnings';
import { PROVIDER_FLEET, ProviderFleet, unavailable } from '#app/provider';
import { SwapsRepository } from '#app/swaps';
import { swapEntity } from '#test/factories';
import {
  FakeEarnings,
  FakeEventRecorder,
  FakeLiquidityProvider,
  FakePollCycles,
  FakeRefreshWriter,
  FakeSwaps,
  FakeUsdPricer,
} from '#test/fakes';
import { PollCyclesRepository } from './poll-cycles.repository.js';
import { PollMetrics } from './poll-metrics.js';
import { RefreshWriter } from './refresh-writer.js';
import { SwapRefresher } from './swap-refresher.js';
import { SwapPollingService, type PollLane } from './swap-polling.service.js';
import { UsdPricer } from './usd-pricer.js';

const OPTIONS: PollingConfig = {
  pollIntervalMs: 30_000,
  testPollIntervalMs: 2_000,
  leaseMs: 60_000,
  batchSize: 25,
};

async function counter(metric: { get(): Promise<{ values: { value: number }[] }> }) {
  return (await metric.get()).values.reduce((sum, v) => sum + v.value, 0);
}

describe(SwapPollingService.name, () => {
  let swaps: FakeSwaps;
  let earnings: FakeEarnings;
  let events: FakeEventRecorder;
  let live: FakeLiquidityProvider;
  let test: FakeLiquidityProvider;
  let metrics: PollMetrics;
  let pricer: FakeUsdPricer;

  async function poller(
    listing: 'pending' | 'over',
    testProvider: FakeLiquidityProvider | null = test,
  ): Promise<{ sut: SwapPollingService; cycles: FakePollCycles }> {
    const cycles = new FakePollCycles(listing);
    const moduleRef = await Test.createTestingModule({
      providers: [
        SwapPollingService,
        SwapRefresher,
        { provide: SwapsRepository, useValue: swaps },
        { provide: PollCyclesRepository, useValue: cycles },
        { provide: EarningsRepository, useValue: earnings },
        {
          provide: RefreshWriter,
          useValue: new FakeRefreshWriter(swaps, events, earnings, cycles),
        },
        { provide: UsdPricer, useValue: pricer },
        { provide: PollMetrics, useValue: metrics },
        {
          provide: PROVIDER_FLEET,
          useValue: new ProviderFleet(
            ['changelly'],
            new Map([['changelly', live]]),
            new Map(testProvider ? [['changelly', testProvider]] : []),
          ),
        },
        { provide: POLLING_CONFIG, useValue: OPTIONS },
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
    events = new FakeEventRecorder();
    live = new FakeLiquidityProvider('live');
    test = new FakeLiquidityProvider('test');
    metrics = new PollMetrics();
    pricer = new FakeUsdPricer();
  });

  describe('lanes', () => {
    it('serves only the live lane without a test provider', async () => {
      const { sut } = await poller('over', null);

      expect(sut.lanes.map((l) => [l.name, l.livemode, l.intervalMs])).toEqual([
        ['live', true, 30_000],
      ]);
    });

    it("refreshes each mode's swaps from that mode's own provider", async () => {
      swaps.add(swapEntity({ id: 'live-1', livemode: true }));
      swaps.add(swapEntity({ id: 'test-1', livemode: false }));
      live.report('tx-live-1', 'confirming');
      test.report('tx-test-1', 'exchanging');
      const { sut } = await poller('over');
      expect(sut.lanes.map((l) => [l.name, l.livemode, l.intervalMs])).toEqual([
        ['live', true, 30_000],
        ['test', false, 2_000],
      ]);

      await sut.pollDue(lane(sut, 'test'), 'poller-a');

      expect(test.lookups).toEqual([{ ids: ['tx-test-1'] }]);
      expect(live.lookups).toEqual([]);
      expect(swaps.row('test-1').swap.status).toBe('exchanging');
      expect(swaps.row('live-1').swap.status).toBe('waiting');
      // Test swaps never earn: the test lane does not touch the earnings queue.
      expect(earnings.claims).toBe(0);

      await sut.pollDue(lane(sut, 'live'), 'poller-a');

      expect(live.lookups).toEqual([{ ids: ['tx-live-1'] }]);
      expect(test.lookups).toHaveLength(1);
      expect(swaps.row('live-1').swap.status).toBe('confirming');
      expect(earnings.claims).toBe(1);
    });
  });

  describe('a lease lost before write-back', () => {
    it('writes nothing: no status, no event, no earnings', async () => {
      swaps.add(swapEntity({ id: 's1', livemode: true }));
      live.report('tx-s1', 'finished');
      // While the provider answers, the lease runs out and another poller claims the swap.
      live.beforeLookup = () => {
        swaps.row('s1').swap.leaseOwner = 'poller-b';
        return undefined;
      };
      const { sut } = await poller('over');

      const report = await sut.pollDue(lane(sut, 'live'), 'poller-a');

      expect(live.lookups).toHaveLength(1);
      expect(swaps.row('s1')).toMatchObject({
        swap: {
          status: 'waiting',
          payoutHash: null,
          amountActualFrom: null,
          leaseOwner: 'poller-b',
        },
        seen: false,
        events: [],
      });
      expect(earnings.pending).toEqual([]);
      expect(report).toEqual({ refreshed: 0, calls: 1 });
      expect(await counter(metrics.leaseLost)).toBe(1);
    });

    it('is the only swap of its group left out', async () => {
      swaps.add(swapEntity({ id: 's1', livemode: true }));
      swaps.add(swapEntity({ id: 's2', livemode: true }));
      live.report('tx-s1', 'finished');
      live.report('tx-s2', 'finished');
      live.beforeLookup = () => {
        swaps.row('s1').swap.leaseOwner = 'poller-b';
        return undefined;
      };
      const { sut } = await poller('over');

      const report = await sut.pollDue(lane(sut, 'live'), 'poller-a');

      expect(swaps.row('s1').swap.status).toBe('waiting');
      expect(swaps.row('s2').swap.status).toBe('finished');
      expect(swaps.row('s2').events).toEqual([{ from: 'waiting', to: 'finished' }]);
      expect(
        events.recorded.map((e) => [
          e.type,
          e.data.swap.id,
          e.data.swap.status,
          e.data.previousStatus,
        ]),
      ).toEqual([['swap.status_changed', 's2', 'finished', 'waiting']]);
      expect(earnings.pending.map((e) => e.swapId)).toEqual(['s2']);
      expect(report.refreshed).toBe(1);
    });
  });

  describe('a provider error mid-batch', () => {
    it('reschedules the failing call and the rest of its batch, and keeps what was written', async () => {
      for (let i = 0; i < 25; i++) {
        swaps.add(swapEntity({ id: `s${i}`, livemode: true }));
        live.report(`tx-s${i}`, 'confirming');
      }
      live.beforeLookup = (call) =>
        call === 1 ? unavailable('getTransactions', 'timeout after 1000 ms', 'unknown') : undefined;
      const { sut } = await poller('over');

      const report = await sut.pollDue(lane(sut, 'live'), 'poller-a');

      // Ten ids per call: the second call failed, the third was never made.
      expect(live.lookups).toHaveLength(2);
      expect(report).toEqual({ refreshed: 10, calls: 2 });
      const written = swaps.rows.slice(0, 10);
      const deferred = swaps.rows.slice(10);
      expect(written.map((r) => [r.swap.status, r.events.length])).toEqual(
        Array(10).fill(['confirming', 1]),
      );
      // Due again an interval later, leases given back, nothing written.
      expect(
        deferred.map((r) => [r.swap.status, r.events.length, r.swap.leaseOwner, r.dueInMs]),
      ).toEqual(Array(15).fill(['waiting', 0, null, 30_000]));
      expect(swaps.reschedules).toEqual([
        { owner: 'poller-a', ids: deferred.map((r) => r.swap.id), delayMs: 30_000 },
      ]);
    });

    it('gives every lease of the batch back at once when the failure is not the provider', async () => {
      for (let i = 0; i < 15; i++) {
        swaps.add(swapEntity({ id: `s${i}`, livemode: true }));
        live.report(`tx-s${i}`, 'confirming');
      }
      live.beforeLookup = (call) => (call === 1 ? new Error('Connection terminated') : undefined);
      const { sut } = await poller('over');

      await expect(sut.pollDue(lane(sut, 'live'), 'poller-a')).rejects.toThrow(
        'Connection terminated',
      );

      expect(swaps.rows.slice(10).map((r) => [r.swap.leaseOwner, r.dueInMs])).toEqual(
        Array(5).fill([null, 0]),
      );
      expect(swaps.rows.slice(0, 10).map((r) => r.swap.status)).toEqual(
        Array(10).fill('confirming'),
      );
    });

    it('ends the listing at a failed page and keeps the pages before it', async () => {
      for (let i = 0; i < 150; i++) {
        swaps.add(swapEntity({ id: `s${i}`, livemode: true }));
        live.report(`tx-s${i}`, i < 100 ? 'confirming' : 'exchanging');
      }
      live.beforeLookup = (call) =>
        call === 1 ? unavailable('getTransactions', 'HTTP 502', 'unknown') : undefined;
      const { sut, cycles } = await poller('pending');

      const report = await sut.pollDue(lane(sut, 'live'), 'poller-a');

      expect(live.lookups.map((q) => ('offset' in q ? q.offset : null))).toEqual([0, 100]);
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
    swaps.add(swapEntity({ id: 's1', livemode: true }));
    const { sut } = await poller('over');

    const report = await sut.pollDue(lane(sut, 'live'), 'poller-a');

    expect(report).toEqual({ refreshed: 0, calls: 1 });
    expect(swaps.row('s1')).toMatchObject({ swap: { leaseOwner: null }, dueInMs: 30_000 });
    expect(await counter(metrics.unknownTransactions)).toBe(1);
  });

  describe('earnings', () => {
    it('books what finished at its price, and queues again what cannot be priced', async () => {
      swaps.add(swapEntity({ id: 'btc-1', livemode: true, from: 'btc' }));
      swaps.add(swapEntity({ id: 'ltc-1', livemode: true, from: 'ltc' }));
      live.report('tx-btc-1', 'finished');
      live.report('tx-ltc-1', 'finished');
      pricer.prices.set('btc', '60000');
      pricer.prices.set('ltc', unavailable('getExchangeAmount', 'HTTP 502', 'unknown'));
      const { sut } = await poller('over');

      await sut.pollDue(lane(sut, 'live'), 'poller-a');

      // Both statuses were written whatever pricing did.
      expect(swaps.rows.map((r) => r.swap.status)).toEqual(['finished', 'finished']);
      expect(earnings.booked).toEqual([{ owner: 'poller-a', swapId: 'btc-1', usdPrice: '60000' }]);
      expect(earnings.released).toEqual(['ltc-1']);
    });
  });
});
