import { randomBytes, randomUUID } from 'node:crypto';
import { pino } from 'pino';
import request from 'supertest';
import { generateAddress } from '#app/chains';
import { loadPollerConfig } from '#app/config';
import type { ProviderName } from '#app/domain';
import { PROVIDER_FLEET, type ProviderFleet } from '#app/provider';
import { startPoller, type PollerProcess } from '../apps/poller/poller.bootstrap.js';
import type { TestPartner } from './factories/partners.js';
import { testApiEnv, TEST_ADMIN_TOKEN } from './support/api.js';
import { startHarness, type Harness } from './support/harness.js';
import { bothProviders, sandboxTransactions } from './support/sandbox.js';
import { waitUntil } from './support/wait.js';

const ADMIN = `Bearer ${TEST_ADMIN_TOKEN}`;
/** Basis points off the reference rate that make a provider plainly the worse one on a pair. */
const WORSE_BPS = 500;

const ethAddress = () => generateAddress('ethereum', (n) => randomBytes(n));

/**
 * Liquidity routing end to end (docs/decisions.md, "Liquidity routing across providers"): the api
 * with both providers of one sandbox, each made the better one on BTC to ETH through the control
 * API's spreads, its faults turned on and off per provider.
 */
describe('Liquidity routing across two providers', () => {
  let h: Harness;
  let partner: TestPartner;

  beforeAll(async () => {
    h = await startHarness({
      sandbox: { stepMs: 200 },
      providers: 'both',
      partner: { feePercent: '1' },
    });
    partner = h.partner;
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  beforeEach(async () => {
    await h.sandbox.control.clearFaults();
    await h.sandbox.control.restoreSpreads();
  });

  /** Makes `better` the provider that pays the most for BTC to ETH, by far. */
  async function favour(better: ProviderName): Promise<void> {
    const worse: ProviderName = better === 'changelly' ? 'changenow' : 'changelly';
    await h.sandbox.control.setSpread(better, 'btc', 'eth', 0);
    await h.sandbox.control.setSpread(worse, 'btc', 'eth', WORSE_BPS);
  }

  function quote(body: object = {}) {
    return request(h.api.url)
      .post('/v1/quotes')
      .set('Authorization', partner.authorization)
      .send({ from: 'btc', to: 'eth', amountFrom: '0.1', ...body });
  }

  function createSwap(key: string = randomUUID(), body: object = {}) {
    return request(h.api.url)
      .post('/v1/swaps')
      .set('Authorization', partner.authorization)
      .set('Idempotency-Key', key)
      .send({ from: 'btc', to: 'eth', amountFrom: '0.1', address: ethAddress(), ...body });
  }

  /** Where a swap lives, as operators see it. */
  async function providerOf(swapId: string): Promise<{ provider: string; tx: string }> {
    const res = await request(h.api.url)
      .get(`/admin/swaps/${swapId}`)
      .set('Authorization', ADMIN)
      .expect(200);
    const swap = (res.body as { swap: { provider: string; providerTransactionId: string } }).swap;
    return { provider: swap.provider, tx: swap.providerTransactionId };
  }

  async function creates(): Promise<Record<ProviderName, number>> {
    const stats = await h.sandbox.control.stats();
    return {
      changelly:
        (stats.providers.changelly.calls.createTransaction ?? 0) +
        (stats.providers.changelly.calls.createFixTransaction ?? 0),
      changenow: stats.providers.changenow.calls.exchange ?? 0,
    };
  }

  it("lists each currency of either provider once, ChangeNOW's extra ones too", async () => {
    const fleet = h.api.app.get<ProviderFleet>(PROVIDER_FLEET);
    const listedBy = async (provider: ProviderName) =>
      (await fleet.get(provider, true).getCurrencies())
        .filter((c) => c.extraIdName === null)
        .map((c) => c.ticker);
    const [changelly, changenow] = await Promise.all([
      listedBy('changelly'),
      listedBy('changenow'),
    ]);

    const res = await request(h.api.url)
      .get('/v1/currencies?lite=true')
      .set('Authorization', partner.authorization)
      .expect(200);
    const listed = (res.body as { currencies: string[] }).currencies;

    expect(changenow.filter((t) => !changelly.includes(t))).toHaveLength(2);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...new Set([...changelly, ...changenow])].sort());
  });

  it.each(['changelly', 'changenow'] as const)(
    'quotes and creates a float swap at the provider paying the most (%s)',
    async (better) => {
      await favour(better);
      const fleet = h.api.app.get<ProviderFleet>(PROVIDER_FLEET);
      const estimate = async (provider: ProviderName) =>
        Number(
          (
            await fleet
              .get(provider, true)
              .getFloatQuote({ from: 'btc', to: 'eth', amountFrom: '0.1' })
          ).amountTo,
        ) * 0.99; // the partner's 1 % fee
      const worse = better === 'changelly' ? 'changenow' : 'changelly';

      const best = (await quote().expect(200)).body as { quote: { amountTo: string } };
      const created = await createSwap().expect(201);

      // The better provider's estimate, about 5 % above the other's (prices move a little).
      const amountTo = Number(best.quote.amountTo);
      expect(amountTo).toBeGreaterThan((await estimate(better)) * 0.995);
      expect(amountTo).toBeGreaterThan((await estimate(worse)) * 1.02);
      expect((await providerOf((created.body as { swap: { id: string } }).swap.id)).provider).toBe(
        better,
      );
    },
  );

  it('quotes and creates while Changelly fails every call', async () => {
    await favour('changelly');
    await h.sandbox.control.setFault({
      provider: 'changelly',
      method: '*',
      mode: 'http_500',
      count: 100,
    });

    await quote().expect(200);
    const created = await createSwap().expect(201);

    expect((await providerOf((created.body as { swap: { id: string } }).swap.id)).provider).toBe(
      'changenow',
    );
  });

  it('answers a quote within its limit while the better provider hangs', async () => {
    await favour('changelly');
    await h.sandbox.control.setFault({
      provider: 'changelly',
      method: 'getExchangeAmount',
      mode: 'timeout',
      count: 1,
    });
    const started = performance.now();

    const res = await quote().expect(200);

    expect(Number((res.body as { quote: { amountTo: string } }).quote.amountTo)).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(2_500 + 5_000);
  });

  it('calls no second provider after a timeout at the first, and the retry finds the swap there', async () => {
    await favour('changenow');
    await quote().expect(200); // warms the catalogue, so the counts below are the creation's own
    await h.sandbox.control.setFault({
      provider: 'changenow',
      method: 'exchange',
      mode: 'timeout',
      count: 1,
    });
    const before = await creates();
    const madeBefore = sandboxTransactions(h.sandbox, 'changenow').length;
    const key = randomUUID();
    const body = { address: ethAddress() };

    const lost = await createSwap(key, body);

    expect(lost.status).toBeGreaterThanOrEqual(500);
    expect(await creates()).toEqual({ ...before, changenow: before.changenow + 1 });
    expect(sandboxTransactions(h.sandbox, 'changenow')).toHaveLength(madeBefore + 1);

    const retried = await createSwap(key, body).expect(201);

    const swapId = (retried.body as { swap: { id: string } }).swap.id;
    const [made] = sandboxTransactions(h.sandbox, 'changenow');
    expect(await providerOf(swapId)).toEqual({ provider: 'changenow', tx: made.id });
    expect(await creates()).toEqual({ ...before, changenow: before.changenow + 1 });
    expect(sandboxTransactions(h.sandbox, 'changenow')).toHaveLength(madeBefore + 1);
  });

  it('never moves a fixed swap off its rate’s provider', async () => {
    await favour('changenow');
    const fixed = (await quote({ mode: 'fixed' }).expect(200)).body as {
      quote: { rateId: string };
    };
    await h.sandbox.control.setFault({
      provider: 'changenow',
      method: 'exchange',
      mode: 'rate_limit',
      count: 1,
    });
    const before = await creates();
    const body = {
      mode: 'fixed',
      rateId: fixed.quote.rateId,
      refundAddress: generateAddress('bitcoin', (n) => randomBytes(n)),
    };

    const refused = await createSwap(randomUUID(), body);

    expect(refused.status).toBe(429);
    expect((refused.body as { error: { code: string } }).error.code).toBe('upstream_rate_limited');
    expect(await creates()).toEqual({ ...before, changenow: before.changenow + 1 });
  });

  it('moves a float swap to the next provider when the best refuses it before making anything', async () => {
    await favour('changenow');
    await h.sandbox.control.setFault({
      provider: 'changenow',
      method: 'exchange',
      mode: 'rate_limit',
      count: 1,
    });
    const before = await creates();

    const created = await createSwap().expect(201);

    expect((await providerOf((created.body as { swap: { id: string } }).swap.id)).provider).toBe(
      'changelly',
    );
    expect(await creates()).toEqual({
      changelly: before.changelly + 1,
      changenow: before.changenow + 1,
    });
  });

  describe('polling', () => {
    let poller: PollerProcess;

    beforeAll(async () => {
      poller = await startPoller(
        loadPollerConfig(
          testApiEnv({
            ...bothProviders(h.sandbox),
            POLLER_HEALTH_PORT: '0',
            POLL_INTERVAL_MS: '500',
            POLLER_TICK_MS: '100',
          }),
        ),
        pino({ level: 'silent' }),
        { shutdownHooks: false },
      );
    });

    afterAll(async () => {
      await poller.close();
    });

    async function statusOf(id: string): Promise<string> {
      const res = await request(h.api.url)
        .get(`/v1/swaps/${id}`)
        .set('Authorization', partner.authorization)
        .expect(200);
      return (res.body as { swap: { status: string } }).swap.status;
    }

    it("refreshes each provider's swaps while the other hangs", async () => {
      const at: Record<ProviderName, string> = { changelly: '', changenow: '' };
      for (const provider of ['changelly', 'changenow'] as const) {
        await favour(provider);
        const res = await createSwap().expect(201);
        at[provider] = (res.body as { swap: { id: string } }).swap.id;
        await h.sandbox.control.deposit((await providerOf(at[provider])).tx);
      }
      await h.sandbox.control.setFault({
        provider: 'changenow',
        method: '*',
        mode: 'timeout',
        count: 100_000,
      });

      await waitUntil(
        'the Changelly swap to finish while ChangeNOW hangs',
        async () => (await statusOf(at.changelly)) === 'finished',
        30_000,
      );
      expect(await statusOf(at.changenow)).toBe('waiting');

      await h.sandbox.control.clearFaults();
      await waitUntil(
        'the ChangeNOW swap to finish once it answers again',
        async () => (await statusOf(at.changenow)) === 'finished',
        30_000,
      );
    }, 90_000);
  });
});
