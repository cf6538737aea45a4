import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import { Decimal } from 'decimal.js';
import { pino } from 'pino';
import request from 'supertest';
import { generateAddress } from '#app/chains';
import { loadPollerConfig } from '#app/config';
import type { ProviderView } from '#app/provider-control';
import { KEY_VALUE_STORE, type KeyValueStore } from '#app/redis';
import { startPoller, type PollerProcess } from '../apps/poller/poller.bootstrap.js';
import { issueCredential, type TestPartner } from './factories/partners.js';
import { testApiEnv, TEST_ADMIN_TOKEN } from './support/api.js';
import { admin, CLI_RUN_MS } from './support/cli.js';
import { startHarness, type Harness } from './support/harness.js';
import { OpenApiValidator } from './support/openapi.js';
import { waitUntil } from './support/wait.js';

const ADMIN = `Bearer ${TEST_ADMIN_TOKEN}`;
const random = (n: number): Uint8Array => randomBytes(n);
const DECIMAL = /^\d+\.\d{8}$/;

/**
 * The operators' side of routing (docs/decisions.md, "Operators' view of routing") with
 * `PROVIDERS=changelly`: the providers' health and switches, any swap with its provider, the
 * metrics per provider, and the CLI's same operations, against a sandbox over HTTP and a poller
 * in this process.
 */
describe("Operators' view of routing", () => {
  let harness: Harness;
  let poller: PollerProcess;
  let adminDocument: OpenApiValidator;

  beforeAll(async () => {
    harness = await startHarness({ sandbox: { stepMs: 100 } });
    const env = { PROVIDER_URL: harness.sandbox.url, TEST_PROVIDER_URL: harness.sandbox.url };
    poller = await startPoller(
      loadPollerConfig(testApiEnv({ ...env, POLLER_HEALTH_PORT: '0', POLL_INTERVAL_MS: '300' })),
      pino({ level: 'silent' }),
      { shutdownHooks: false },
    );
    adminDocument = await OpenApiValidator.load(harness.api.url, '/admin/openapi.json', ADMIN);
  }, 60_000);

  afterAll(async () => {
    await poller.close();
    await harness.close();
  });

  function operator() {
    return {
      get: (path: string) => request(harness.api.url).get(path).set('Authorization', ADMIN),
      post: (path: string) => request(harness.api.url).post(path).set('Authorization', ADMIN),
    };
  }

  async function providers(): Promise<ProviderView[]> {
    const res = await operator().get('/admin/providers').expect(200);
    adminDocument.check('GET', '/admin/providers', 200, res.body);
    return (res.body as { providers: ProviderView[] }).providers;
  }

  async function quote(who: TestPartner = harness.partner, amountFrom = '0.1') {
    return harness.post('/v1/quotes', { from: 'btc', to: 'eth', amountFrom }, who);
  }

  async function createSwap(who: TestPartner = harness.partner): Promise<Record<string, unknown>> {
    const res = await request(harness.api.url)
      .post('/v1/swaps')
      .set('Authorization', who.authorization)
      .set('Idempotency-Key', randomUUID())
      .send({
        from: 'btc',
        to: 'eth',
        amountFrom: '0.1',
        address: generateAddress('ethereum', random),
      })
      .expect(201);
    return (res.body as { swap: Record<string, unknown> }).swap;
  }

  async function metrics(url = harness.api.url): Promise<string> {
    return (await request(url).get('/metrics').set('Authorization', ADMIN).expect(200)).text;
  }

  async function auditEntries(limit: number): Promise<Record<string, unknown>[]> {
    const res = await operator().get(`/admin/audit?limit=${limit}`).expect(200);
    return (res.body as { entries: Record<string, unknown>[] }).entries;
  }

  describe('GET /admin/providers', () => {
    it("lists the one provider of PROVIDERS with this replica's counts of a few quotes and a swap at once", async () => {
      for (let i = 0; i < 3; i++) {
        expect((await quote()).status).toBe(200);
      }
      await createSwap();

      // No wait for the 10 s flush: the list saves this replica's counts first.
      expect(await providers()).toEqual([
        {
          id: 'changelly',
          enabled: true,
          circuit: 'closed',
          quotes24h: 3,
          wins24h: 3,
          errors24h: 0,
          p50LatencyMs: expect.any(Number) as number,
          swaps24h: 1,
          fidelity24h: null,
        },
      ]);
    });

    it('shows the fidelity of its finished float swaps as a decimal string', async () => {
      const swap = await createSwap();
      const [row] = await harness.db.query<
        { provider_transaction_id: string; provider_expected_to: string }[]
      >('SELECT provider_transaction_id, provider_expected_to FROM swaps WHERE id = $1', [swap.id]);
      await harness.sandbox.control.deposit(row.provider_transaction_id);
      let finished: Record<string, string> = {};
      await waitUntil(
        'the swap to finish',
        async () => {
          finished = (await harness.get(`/v1/swaps/${String(swap.id)}`)).body.swap;
          return finished.status === 'finished';
        },
        30_000,
        200,
      );

      const [changelly] = await providers();

      const delivered = new Decimal(finished.amountActualTo).div(finished.amountActualFrom);
      const promised = new Decimal(row.provider_expected_to).div(finished.amountFrom);
      expect(changelly.fidelity24h).toMatch(DECIMAL);
      expect(changelly.fidelity24h).toBe(delivered.div(promised).toFixed(8));
      const gauge = /^provider_fidelity_ratio\{provider="changelly"\} (\S+)$/m.exec(
        await metrics(),
      );
      expect(Number(gauge?.[1])).toBe(Number(changelly.fidelity24h));
    });

    it('shows the circuit open after five failed quotes, and closed again after a success', async () => {
      // Every estimate fails until the faults are cleared: a call made meanwhile by anything else
      // (a refresh in the background) cannot use up the last fault and let a quote through.
      await harness.sandbox.control.setFault({
        method: 'getExchangeAmount',
        mode: 'http_500',
        count: 1_000,
      });
      for (let i = 0; i < 5; i++) {
        expect((await quote()).body.error).toMatchObject({ type: 'upstream_error' });
      }
      await harness.sandbox.control.clearFaults();

      const [opened] = await providers();
      expect(opened).toMatchObject({ circuit: 'open' });
      expect(opened.errors24h).toBeGreaterThanOrEqual(5);
      const open = await metrics();
      expect(open).toMatch(/^provider_circuit_state\{provider="changelly",state="open"\} 1$/m);
      expect(open).toMatch(/^provider_circuit_state\{provider="changelly",state="closed"\} 0$/m);

      // An open circuit only demotes: the only provider is still asked, and its answer closes it.
      expect((await quote()).status).toBe(200);
      expect((await providers())[0].circuit).toBe('closed');
      expect(await metrics()).toMatch(
        /^provider_circuit_state\{provider="changelly",state="closed"\} 1$/m,
      );
    });
  });

  describe('POST /admin/providers/{id}/disable and /enable', () => {
    it('refuses to take the last provider out of routing: 409 conflict, nothing changed', async () => {
      const res = await operator().post('/admin/providers/changelly/disable').expect(409);

      expect(res.body.error).toMatchObject({ type: 'conflict', code: 'conflict' });
      adminDocument.check('POST', '/admin/providers/{id}/disable', 409, res.body);
      expect((await providers())[0].enabled).toBe(true);
      expect((await quote()).status).toBe(200);
    });

    it('enables idempotently, answering the entry as the list shows it, audited as admin each time', async () => {
      const first = await operator().post('/admin/providers/changelly/enable').expect(200);
      const second = await operator().post('/admin/providers/changelly/enable').expect(200);

      adminDocument.check('POST', '/admin/providers/{id}/enable', 200, second.body);
      const [listed] = await providers();
      expect(first.body).toEqual({ provider: listed });
      expect(second.body).toEqual({ provider: listed });
      expect(
        (await auditEntries(2)).map((e) => [e.actor, e.action, e.targetType, e.targetId]),
      ).toEqual([
        ['admin', 'provider.enable', 'provider', 'changelly'],
        ['admin', 'provider.enable', 'provider', 'changelly'],
      ]);
    });

    it.each(['changenow', 'nope', 'CHANGELLY'])(
      'answers 404 not_found for %s, not in PROVIDERS, recording nothing',
      async (id) => {
        const before = await auditEntries(200);
        for (const action of ['disable', 'enable']) {
          const res = await operator().post(`/admin/providers/${id}/${action}`).expect(404);
          expect(res.body.error).toMatchObject({ type: 'not_found', code: 'not_found' });
        }
        expect(await auditEntries(200)).toEqual(before);
      },
    );

    it('is behind the admin token', async () => {
      await request(harness.api.url).get('/admin/providers').expect(401);
      await request(harness.api.url).post('/admin/providers/changelly/enable').expect(401);
      await request(harness.api.url)
        .get('/admin/providers')
        .set('Authorization', harness.partner.authorization)
        .expect(401);
    });
  });

  describe('GET /admin/swaps/{id}', () => {
    it("shows any organization's swap with every partner field, its provider, transaction id and organization", async () => {
      const other = await harness.newPartner();
      const swap = await createSwap(other);
      const [row] = await harness.db.query<{ provider_transaction_id: string }[]>(
        'SELECT provider_transaction_id FROM swaps WHERE id = $1',
        [swap.id],
      );

      const res = await operator()
        .get(`/admin/swaps/${String(swap.id)}`)
        .expect(200);

      adminDocument.check('GET', '/admin/swaps/{id}', 200, res.body);
      const partnerView = (await harness.get(`/v1/swaps/${String(swap.id)}`, other)).body.swap;
      expect(res.body).toEqual({
        swap: {
          ...partnerView,
          provider: 'changelly',
          providerTransactionId: row.provider_transaction_id,
          organizationId: other.organizationId,
        },
      });
    });

    it('shows a test swap and a legacy swp_ swap too', async () => {
      const tester = await issueCredential(harness.api.app, harness.partner, 'test');
      const addresses = await harness.get('/v1/test_helpers/addresses?currency=eth', tester);
      const created = await request(harness.api.url)
        .post('/v1/swaps')
        .set('Authorization', tester.authorization)
        .set('Idempotency-Key', randomUUID())
        .send({ from: 'btc', to: 'eth', amountFrom: '0.1', address: addresses.body.addresses[0] })
        .expect(201);
      const legacyId = `swp_${randomBytes(6).toString('hex')}`;
      await operator()
        .post('/admin/swaps/import')
        .send({
          swaps: [
            {
              id: legacyId,
              organizationId: harness.partner.organizationId,
              status: 'finished',
              from: 'btc',
              to: 'eth',
              amountFrom: '0.5',
              payinAddress: generateAddress('bitcoin', random),
              payoutAddress: generateAddress('ethereum', random),
              createdAt: '2025-01-01T09:55:00.000Z',
            },
          ],
        })
        .expect(201);

      const test = await operator()
        .get(`/admin/swaps/${created.body.swap.id as string}`)
        .expect(200);
      const legacy = await operator().get(`/admin/swaps/${legacyId}`).expect(200);

      expect(test.body.swap).toMatchObject({
        id: created.body.swap.id,
        livemode: false,
        provider: 'changelly',
        providerTransactionId: expect.any(String) as string,
        organizationId: harness.partner.organizationId,
      });
      expect(legacy.body.swap).toMatchObject({
        id: legacyId,
        status: 'finished',
        provider: 'changelly',
        providerTransactionId: null,
        organizationId: harness.partner.organizationId,
      });
      adminDocument.check('GET', '/admin/swaps/{id}', 200, legacy.body);
    });

    it.each(['0123456789abcdef', 'swp_missing', 'not an id', "1' OR '1'='1"])(
      'answers 404 not_found for %p',
      async (id) => {
        const res = await operator()
          .get(`/admin/swaps/${encodeURIComponent(id)}`)
          .expect(404);
        expect(res.body.error).toMatchObject({ type: 'not_found', code: 'not_found' });
      },
    );

    it('leaves the import route its own: GET /admin/swaps/import is 405, not a swap called import', async () => {
      const res = await operator().get('/admin/swaps/import').expect(405);

      expect(res.headers.allow).toBe('POST');
      expect(res.body.error).toMatchObject({ code: 'method_not_allowed' });
    });
  });

  describe('the CLI', () => {
    jest.setTimeout(6 * CLI_RUN_MS);

    async function cli(...args: string[]): Promise<Record<string, unknown>> {
      const result = await admin(...args);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      return JSON.parse(result.stdout) as Record<string, unknown>;
    }

    it('lists, switches and shows as the admin API does, audited as cli', async () => {
      const swap = await createSwap();
      // The api saves its latest counts as it lists them; the CLI then reads the same totals.
      const viaApi = await providers();

      expect(await cli('provider:list')).toEqual({ providers: viaApi });

      const refused = await admin('provider:disable', 'changelly');
      expect(refused).toMatchObject({ code: 1, stdout: '' });
      expect(refused.stderr).toMatch(/^conflict: /);
      const unknown = await admin('provider:enable', 'nope');
      expect(unknown.stderr).toBe('not_found: Provider not found.\n');

      const enabled = await cli('provider:enable', 'changelly');
      expect(enabled).toEqual({ provider: (await providers())[0] });

      const shown = await cli('swap:show', String(swap.id));
      expect(shown).toEqual((await operator().get(`/admin/swaps/${String(swap.id)}`)).body);
      expect((await admin('swap:show', 'swp_missing')).stderr).toBe('not_found: Swap not found.\n');

      expect((await auditEntries(1)).map((e) => [e.actor, e.action, e.targetId])).toEqual([
        ['cli', 'provider.enable', 'changelly'],
      ]);
    });
  });
  describe('metrics per provider', () => {
    it('label upstream calls by provider in the api and the poller, and count quote wins', async () => {
      expect((await quote()).status).toBe(200);
      const api = await metrics();
      const probes = `http://127.0.0.1:${(poller.probes.address() as AddressInfo).port}`;
      const pollerText = (
        await request(probes).get('/metrics').set('Authorization', ADMIN).expect(200)
      ).text;

      expect(api).toMatch(
        /^api_upstream_calls_total\{provider="changelly",method="getExchangeAmount",outcome="ok"\} [1-9]\d*$/m,
      );
      expect(api).toMatch(
        /^api_upstream_call_duration_seconds_count\{provider="changelly",method="getExchangeAmount"\} [1-9]\d*$/m,
      );
      expect(api).toMatch(/^provider_quote_wins_total\{provider="changelly"\} [1-9]\d*$/m);
      expect(pollerText).toMatch(
        /^poller_upstream_calls_total\{provider="changelly",method="getTransactions",outcome="ok"\} [1-9]\d*$/m,
      );
      expect(pollerText).toContain('# TYPE upstream_budget_exhausted_total counter');
    });

    it("count a quote the provider's budget refused, by provider and caller", async () => {
      // Every slot of the live Changelly budget for the next 3.3 s is taken, as a burst of other
      // replicas' calls would take them: the quote finds none within its 2.5 s and is refused.
      // The suite's last test, since any later call would wait for those slots.
      const store = harness.api.app.get<KeyValueStore>(KEY_VALUE_STORE);
      for (let i = 0; i < 30; i++) {
        await store.reserveSlot('upstream:changelly:live', 110, 60_000);
      }

      const res = await quote();

      expect(res.status).toBe(429);
      expect(res.body.error).toMatchObject({ code: 'upstream_rate_limited' });
      expect(await metrics()).toMatch(
        /^upstream_budget_exhausted_total\{provider="changelly",caller="quote"\} 1$/m,
      );
    });
  });
});
