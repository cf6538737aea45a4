import { randomBytes, randomUUID } from 'node:crypto';
import { Decimal } from 'decimal.js';
import request from 'supertest';
import { generateAddress } from '#app/chains';
import type { TestPartner } from './factories/partners.js';
import { ADMIN_HEADERS, TEST_ADMIN_TOKEN } from './support/api.js';
import { startHarness, type Harness } from './support/harness.js';
import { sampleOf } from './support/metric-names.js';
import { waitUntil } from './support/wait.js';

const POLL_INTERVAL_MS = 300;
/** Each sandbox status lasts this long: long enough to be seen on a busy machine. */
const STEP_MS = 2000;
/** How often the test reads the swap: 20 reads/s stays under the 30/s credential limit. */
const OBSERVE_MS = 50;
const random = (n: number): Uint8Array => randomBytes(n);
const SCRAPE = { headers: ADMIN_HEADERS };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface SwapBody {
  status: string;
  [field: string]: unknown;
}

describe('Poller: swap lifecycle, settlement fields and transitions', () => {
  let h: Harness;
  let partner: TestPartner;

  beforeAll(async () => {
    h = await startHarness({
      sandbox: { stepMs: STEP_MS },
      partner: { feePercent: '1' },
      poller: { POLL_INTERVAL_MS: String(POLL_INTERVAL_MS), POLLER_TICK_MS: '50' },
    });
    partner = h.partner;
  }, 120_000);

  afterAll(async () => {
    await h?.close();
  });

  async function createFloatSwap(amountFrom = '0.1'): Promise<string> {
    const res = await request(h.api.url)
      .post('/v1/swaps')
      .set('Authorization', partner.authorization)
      .set('Idempotency-Key', randomUUID())
      .send({ from: 'btc', to: 'eth', amountFrom, address: generateAddress('ethereum', random) })
      .expect(201);
    return res.body.swap.id as string;
  }

  async function createFixedSwap(amountFrom = '0.1'): Promise<string> {
    const quote = await request(h.api.url)
      .post('/v1/quotes')
      .set('Authorization', partner.authorization)
      .send({ from: 'btc', to: 'eth', amountFrom, mode: 'fixed' })
      .expect(200);
    const res = await request(h.api.url)
      .post('/v1/swaps')
      .set('Authorization', partner.authorization)
      .set('Idempotency-Key', randomUUID())
      .send({
        from: 'btc',
        to: 'eth',
        amountFrom,
        mode: 'fixed',
        rateId: quote.body.quote.rateId,
        address: generateAddress('ethereum', random),
        refundAddress: generateAddress('bitcoin', random),
      })
      .expect(201);
    return res.body.swap.id as string;
  }

  async function providerId(swapId: string): Promise<string> {
    const [row] = await h.db.query<{ provider_transaction_id: string }[]>(
      'SELECT provider_transaction_id FROM swaps WHERE id = $1',
      [swapId],
    );
    return row.provider_transaction_id;
  }

  async function getSwap(id: string): Promise<SwapBody> {
    const res = await request(h.api.url)
      .get(`/v1/swaps/${id}`)
      .set('Authorization', partner.authorization)
      .expect(200);
    return res.body.swap as SwapBody;
  }

  /** How many cycles the poller has started on the live Changelly lane. */
  async function cyclesStarted(): Promise<number> {
    const [row] = await h.db.query<{ number: string }[]>(
      `SELECT number FROM poll_cycles WHERE lane = 'live'`,
    );
    return Number(row?.number ?? 0);
  }

  /**
   * Reads the swap until it has `status`. A change made upstream just before is seen within two
   * poller cycles (the one under way may have listed before it); this fails once more than
   * `cycles` have started without it, counted in cycles because on a busy machine they come
   * later than every 300 ms (and after 60 s, should the poller stall).
   */
  async function waitForStatus(id: string, status: string, cycles = 3): Promise<SwapBody> {
    const from = await cyclesStarted();
    const deadline = Date.now() + 60_000;
    for (;;) {
      const passed = (await cyclesStarted()) - from;
      const swap = await getSwap(id);
      if (swap.status === status) {
        return swap;
      }
      if (passed > cycles || Date.now() > deadline) {
        throw new Error(`swap ${id} is ${swap.status}, not ${status}, ${passed} poller cycles on`);
      }
      await sleep(OBSERVE_MS);
    }
  }

  /** Resolves once the poller has started `count` more cycles. */
  async function cyclesPass(count: number): Promise<void> {
    const from = await cyclesStarted();
    await waitUntil(
      `${count} poller cycles`,
      async () => (await cyclesStarted()) - from >= count,
      60_000,
      OBSERVE_MS,
    );
  }

  async function metrics(): Promise<string> {
    const res = await fetch(`${h.poller.url}/metrics`, SCRAPE);
    expect(res.status).toBe(200);
    return res.text();
  }

  async function events(swapId: string): Promise<{ from: string | null; to: string }[]> {
    return h.db.query<{ from: string | null; to: string }[]>(
      `SELECT from_status AS "from", to_status AS "to", source FROM swap_events
        WHERE swap_id = $1 ORDER BY id`,
      [swapId],
    );
  }

  it('follows a deposit through confirming … finished within two poll cycles of each step', async () => {
    const id = await createFloatSwap();
    // `waiting` is read before the deposit: on a busy machine the first read after it can come
    // after the poller already saw `confirming` (one interval, 300 ms, after the deposit).
    const firstSeen = new Map([[(await getSwap(id)).status, Date.now()]]);
    // The poller's cycle count over time: on a busy machine its cycles come later than every
    // 300 ms, so how soon it saw a step is counted in its cycles, not in milliseconds.
    const cycles = [{ at: Date.now(), number: await cyclesStarted() }];
    const observe = async (): Promise<SwapBody> => {
      const number = await cyclesStarted();
      cycles.push({ at: Date.now(), number });
      return getSwap(id);
    };
    const deposit = await h.sandbox.control.deposit(await providerId(id));
    const depositAt = deposit.clock!.sinceMs;
    const deadline = depositAt + 4 * STEP_MS + 3000;
    let swap = await observe();
    while (swap.status !== 'finished' && Date.now() < deadline) {
      if (!firstSeen.has(swap.status)) {
        firstSeen.set(swap.status, cycles.at(-1)!.at);
      }
      await sleep(OBSERVE_MS);
      swap = await observe();
    }
    firstSeen.set(swap.status, firstSeen.get(swap.status) ?? cycles.at(-1)!.at);

    expect([...firstSeen.keys()]).toEqual([
      'waiting',
      'confirming',
      'exchanging',
      'sending',
      'finished',
    ]);
    const cycleAt = (at: number): number =>
      cycles.findLast((c) => c.at <= at)?.number ?? cycles[0].number;
    // The cycle under way at a step may have listed before it; one of the next two sees it. One
    // more: the count is read just before the swap, so a cycle may start between the two reads.
    const late = (['confirming', 'exchanging', 'sending', 'finished'] as const).flatMap(
      (status, step) => {
        const cyclesAfter = cycleAt(firstSeen.get(status)!) - cycleAt(depositAt + step * STEP_MS);
        return cyclesAfter > 3 ? [`${status} seen ${cyclesAfter} cycles after its step`] : [];
      },
    );
    expect(late).toEqual([]);
    const tx = await h.sandbox.control.transaction(await providerId(id));
    expect(swap).toMatchObject({
      status: 'finished',
      payinHash: tx.payinHash,
      payoutHash: tx.payoutHash,
      amountActualFrom: '0.1',
      amountActualTo: tx.amountTo,
      actualNetworkFee: tx.networkFee,
      moneyReceivedAt: new Date(tx.moneyReceived * 1000).toISOString(),
      moneySentAt: new Date(tx.moneySent * 1000).toISOString(),
      amountAnomalyPct: '0',
    });
    expect(await events(id)).toEqual([
      { from: 'waiting', to: 'confirming', source: 'poller' },
      { from: 'confirming', to: 'exchanging', source: 'poller' },
      { from: 'exchanging', to: 'sending', source: 'poller' },
      { from: 'sending', to: 'finished', source: 'poller' },
    ]);
    const [stored] = await h.db.query<{ next_poll_at: Date | null; lease_owner: string | null }[]>(
      'SELECT next_poll_at, lease_owner, lease_until FROM swaps WHERE id = $1',
      [id],
    );
    expect(stored).toEqual({ next_poll_at: null, lease_owner: null, lease_until: null });
  });

  it('expires a fixed swap whose deposit is short', async () => {
    const id = await createFixedSwap('0.1');
    await h.sandbox.control.deposit(await providerId(id), { amount: '0.09' });

    const swap = await waitForStatus(id, 'expired');

    expect(swap.status).toBe('expired');
    expect(await events(id)).toEqual([{ from: 'waiting', to: 'expired', source: 'poller' }]);
  });

  it('reports a 20 % over-deposit as amountAnomalyPct 20 and books earnings on the actual amount', async () => {
    const id = await createFloatSwap('0.1');
    const txId = await providerId(id);
    await h.sandbox.control.deposit(txId, { amount: '0.12' });
    // The steps between are the first test's: here the provider reports it finished at once.
    await h.sandbox.control.forceStatus(txId, 'finished');

    const swap = await waitForStatus(id, 'finished');

    expect(swap).toMatchObject({ amountActualFrom: '0.12', amountAnomalyPct: '20' });
    // Booked right after the status is written, once the price is read: the status never waits.
    await waitUntil('the earnings to be booked', async () => {
      const rows = await h.db.query<unknown[]>(`SELECT 1 FROM earnings_ledger WHERE swap_id = $1`, [
        id,
      ]);
      return rows.length > 0;
    });
    const ledger = await h.db.query<
      {
        amount_actual_from: string;
        fee_percent: string;
        usd_price: string;
        amount_usd: string;
        from_ticker: string;
      }[]
    >(
      `SELECT amount_actual_from, fee_percent, usd_price, amount_usd, from_ticker
         FROM earnings_ledger WHERE swap_id = $1`,
      [id],
    );
    expect(ledger).toHaveLength(1);
    const entry = ledger[0];
    expect(entry).toMatchObject({
      amount_actual_from: '0.12',
      fee_percent: '1',
      from_ticker: 'btc',
    });
    // The sandbox's BTC reference price is 65 000 USD, moved by at most a few ‰ per minute.
    expect(new Decimal(entry.usd_price).div(65000).minus(1).abs().lt('0.05')).toBe(true);
    expect(entry.amount_usd).toBe(
      new Decimal('0.12')
        .mul(entry.usd_price)
        .div(100)
        .toDecimalPlaces(6, Decimal.ROUND_DOWN)
        .toFixed(),
    );
  });

  it('keeps a terminal status when the provider later reports an earlier one', async () => {
    const id = await createFloatSwap();
    const txId = await providerId(id);
    await h.sandbox.control.forceStatus(txId, 'refunded');
    await waitForStatus(id, 'refunded');

    await h.sandbox.control.forceStatus(txId, 'exchanging');
    await cyclesPass(4);

    expect((await getSwap(id)).status).toBe('refunded');
    expect(await events(id)).toEqual([{ from: 'waiting', to: 'refunded', source: 'poller' }]);
  });

  it('refreshes a swap on hold every poll interval, like any other non-terminal swap', async () => {
    const id = await createFloatSwap();
    const txId = await providerId(id);
    await h.sandbox.control.forceStatus(txId, 'hold');
    await waitForStatus(id, 'hold');

    await h.sandbox.control.forceStatus(txId, 'exchanging');
    const swap = await waitForStatus(id, 'exchanging');

    expect(swap.status).toBe('exchanging');
    expect((await events(id)).map((e) => e.to)).toEqual(['hold', 'exchanging']);
  });

  it('ignores and counts a report that goes backwards', async () => {
    const id = await createFloatSwap();
    const txId = await providerId(id);
    await h.sandbox.control.forceStatus(txId, 'sending');
    await waitForStatus(id, 'sending');

    await h.sandbox.control.forceStatus(txId, 'confirming');
    await waitUntil('the poller to count the backwards report', async () =>
      /^poller_transition_violations_total\{from="sending",to="confirming"\} [1-9]\d*$/m.test(
        await metrics(),
      ),
    );

    expect((await getSwap(id)).status).toBe('sending');
    expect((await events(id)).map((e) => e.to)).not.toContain('confirming');
  });

  it.each([
    ['no authorization', undefined],
    ['a wrong token', `Bearer ${TEST_ADMIN_TOKEN}x`],
    ['the token without its scheme', TEST_ADMIN_TOKEN],
  ])(
    'refuses /metrics with %s: 401 with the envelope, as the api does',
    async (_, authorization) => {
      const res = await fetch(`${h.poller.url}/metrics`, {
        headers: authorization === undefined ? {} : { Authorization: authorization },
      });

      expect(res.status).toBe(401);
      const body = (await res.json()) as { error: { type: string; code: string } };
      expect(body.error).toMatchObject({ type: 'authentication_error', code: 'unauthenticated' });
    },
  );

  it('serves /metrics in Prometheus text format next to /health and /ready', async () => {
    const res = await fetch(`${h.poller.url}/metrics`, SCRAPE);
    const text = await res.text();

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(text).toMatch(/^# TYPE poller_poll_lag_seconds summary$/m);
    expect(text).toMatch(/^poller_poll_lag_seconds\{quantile="0.5"\} [\d.e-]+$/m);
    expect(text).toMatch(/^poller_poll_lag_seconds\{quantile="0.99"\} [\d.e-]+$/m);
    expect(text).toMatch(/^poller_batch_size_bucket\{le="10"\} \d+$/m);
    expect(text).toMatch(/^poller_transitions_total\{status="finished"\} [1-9]\d*$/m);
    expect(text).toMatch(
      /^poller_upstream_calls_total\{provider="changelly",method="getTransactions",outcome="ok"\} \d+/m,
    );
    // Pricing the finished swaps above (fee 1 %, from btc) is a provider call of the poller too.
    expect(text).toMatch(
      /^poller_upstream_calls_total\{provider="changelly",method="getExchangeAmount",outcome="ok"\} [1-9]\d*$/m,
    );
    expect(text).toMatch(/^process_cpu_seconds_total [\d.e+-]+$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds [\d.e+-]+$/m);
    expect((await fetch(`${h.poller.url}/health`)).status).toBe(200);
    expect((await fetch(`${h.poller.url}/ready`)).status).toBe(200);
  });

  it('shows on /metrics how overdue the oldest swap and earnings are, and its dependencies', async () => {
    // A swap the provider never reports stays unconfirmed since it was created, an hour ago; the
    // earnings of another wait under a lease a stalled poller holds.
    const [overdue, waiting] = [`overdue${randomUUID().slice(0, 8)}`, await createFloatSwap()];
    await h.db.query(
      `INSERT INTO swaps (provider, id, organization_id, livemode, status, mode, from_ticker,
         to_ticker, amount_from, amount_expected_to, payin_address, payout_address,
         provider_transaction_id, created_at, updated_at)
       VALUES ('changelly', $1, $2, true, 'waiting', 'float', 'btc', 'eth', 0.1, 1.5, 'in', 'out', $1,
               now() - interval '1 hour', now())`,
      [overdue, partner.organizationId],
    );
    await h.db.query(
      `INSERT INTO earnings_pending (swap_id, organization_id, fee_percent, amount_actual_from,
         from_ticker, lease_owner, lease_until, created_at)
       VALUES ($1, $2, 1, 0.1, 'btc', 'a-stalled-poller', now() + interval '1 hour',
               now() - interval '20 minutes')`,
      [waiting, partner.organizationId],
    );
    try {
      await waitUntil(
        'the lag gauges to show the overdue swap and the waiting earnings',
        async () => {
          const text = await metrics();
          return (
            sampleOf(text, 'poller_oldest_due_swap_lag_seconds{lane="live"}') > 3000 &&
            sampleOf(text, 'poller_earnings_oldest_pending_age_seconds') > 1100
          );
        },
        // Measured every 10 s.
        30_000,
        250,
      );
      const text = await metrics();
      expect(sampleOf(text, 'poller_oldest_due_swap_lag_seconds{lane="live"}')).toBeLessThan(3700);
      expect(sampleOf(text, 'poller_earnings_oldest_pending_age_seconds')).toBeLessThan(1300);
      expect(text).toMatch(/^dependency_up\{dependency="postgres"\} 1$/m);
      expect(text).toMatch(/^dependency_up\{dependency="redis"\} 1$/m);
    } finally {
      await h.db.query('DELETE FROM earnings_pending WHERE swap_id = $1', [waiting]);
      await h.db.query('DELETE FROM swaps WHERE id = $1', [overdue]);
    }
    // The hour-old swap is gone: the gauge falls back to the seconds a busy machine's poller may
    // run behind the file's other swaps (exactly 0 only when it keeps up).
    await waitUntil(
      'the lag gauge to clear once the overdue swap is gone',
      async () => sampleOf(await metrics(), 'poller_oldest_due_swap_lag_seconds{lane="live"}') < 60,
      45_000,
      250,
    );
  });

  it('counts upstream errors and retries the batch later', async () => {
    const id = await createFloatSwap();
    await h.sandbox.control.setFault({ method: 'getTransactions', mode: 'http_500', count: 2 });
    await h.sandbox.control.deposit(await providerId(id));

    await waitForStatus(id, 'confirming', 6);

    expect(await metrics()).toMatch(
      /^poller_upstream_errors_total\{method="getTransactions",code="upstream_unavailable"\} [1-9]\d*$/m,
    );
  });
});
