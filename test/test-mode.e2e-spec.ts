import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { CredentialAuthenticator } from '#app/partners';
import { SwapCreationService } from '#app/swaps';
import { issueCredential, type TestPartner } from './factories/partners.js';
import { honouringRetryAfter, TEST_ADMIN_TOKEN } from './support/api.js';
import { startHarness, type Harness } from './support/harness.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';
import { waitUntil } from './support/wait.js';

const ADMIN = `Bearer ${TEST_ADMIN_TOKEN}`;
/** The test sandbox's lifecycle steps for the timing figures. */
const TEST_STEP_MS = 300;
const HELPER_STATUSES = [
  'confirming',
  'exchanging',
  'sending',
  'finished',
  'failed',
  'refunded',
  'overdue',
  'expired',
  'hold',
] as const;

interface Swap {
  id: string;
  status: string;
  livemode: boolean;
  mode: string;
  payTill: string | null;
}

/**
 * Test mode end to end (docs/decisions.md, "Test mode"): a live and a test sandbox, the api and a
 * poller process serving both lanes. Live swaps are polled every 30 s here, test swaps every 2 s
 * (the default): whatever moves a test swap in seconds is the test lane or the helpers' immediate
 * refresh.
 */
describe('Test mode', () => {
  /** The harness's sandbox serves the live lane; the test lane has this one of its own. */
  let testSandbox: TestSandbox;
  let h: Harness;

  beforeAll(async () => {
    testSandbox = await startTestSandbox({ stepMs: TEST_STEP_MS });
    h = await startHarness({
      sandbox: { stepMs: TEST_STEP_MS },
      api: { TEST_PROVIDER_URL: testSandbox.url },
      poller: { POLL_INTERVAL_MS: '30000' },
    });
  }, 120_000);

  afterAll(async () => {
    await h?.close();
    await testSandbox?.close();
  });

  const quote = (who: TestPartner, body: object = {}) =>
    request(h.api.url)
      .post('/v1/quotes')
      .set('Authorization', who.authorization)
      .send({ from: 'btc', to: 'eth', amountFrom: '0.1', ...body });

  async function address(who: TestPartner, currency = 'eth'): Promise<string> {
    const res = await request(h.api.url)
      .get(`/v1/test_helpers/addresses?currency=${currency}`)
      .set('Authorization', who.authorization)
      .expect(200);
    return (res.body as { addresses: string[] }).addresses[0];
  }

  /** A swap of `who`, paying out to an address the helper of `tester` (a test credential) gives. */
  async function createSwap(
    who: TestPartner,
    body: object = {},
    tester: TestPartner = who,
  ): Promise<Swap> {
    const res = await request(h.api.url)
      .post('/v1/swaps')
      .set('Authorization', who.authorization)
      .set('Idempotency-Key', randomUUID())
      .send({ from: 'btc', to: 'eth', amountFrom: '0.1', address: await address(tester), ...body })
      .expect(201);
    return res.body.swap as Swap;
  }

  const getSwap = (who: TestPartner, id: string) =>
    request(h.api.url).get(`/v1/swaps/${id}`).set('Authorization', who.authorization);

  const helper = (who: TestPartner, id: string, action: 'deposit' | 'status', body: object) =>
    request(h.api.url)
      .post(`/v1/test_helpers/swaps/${id}/${action}`)
      .set('Authorization', who.authorization)
      .send(body);

  /** How long until `GET /v1/swaps/{id}` shows `status`, or a failure after `timeoutMs`. */
  async function msUntilStatus(
    who: TestPartner,
    id: string,
    status: string,
    timeoutMs: number,
  ): Promise<number> {
    const started = Date.now();
    await waitUntil(
      `swap ${id} to be ${status}`,
      async () => (await getSwap(who, id)).body.swap?.status === status,
      timeoutMs,
      100,
    );
    return Date.now() - started;
  }

  describe('credentials', () => {
    let organizationId: string;

    beforeAll(async () => {
      organizationId = (await h.newPartner()).organizationId;
    });

    const issue = (body?: object) => {
      const req = request(h.api.url)
        .post(`/admin/organizations/${organizationId}/credentials`)
        .set('Authorization', ADMIN);
      return body === undefined ? req : req.send(body);
    };

    it('issues a test credential for {"mode":"test"} and a live one otherwise', async () => {
      const test = (await issue({ mode: 'test' }).expect(201)).body.credential;
      expect(test.publicKey).toMatch(/^pk_test_[0-9a-f]{32}$/);
      expect(test.secret).toMatch(/^sk_test_[0-9a-f]{48}$/);
      expect(test.mode).toBe('test');
      for (const body of [undefined, { mode: 'live' }, {}]) {
        const live = (await issue(body).expect(201)).body.credential;
        expect(live.publicKey).toMatch(/^pk_live_[0-9a-f]{32}$/);
        expect(live.secret).toMatch(/^sk_live_[0-9a-f]{48}$/);
        expect(live.mode).toBe('live');
      }
      const listed = await request(h.api.url)
        .get(`/admin/organizations/${organizationId}/credentials`)
        .set('Authorization', ADMIN)
        .expect(200);
      const modes = (listed.body.credentials as { publicKey: string; mode: string }[]).map((c) => [
        c.publicKey.slice(0, 8),
        c.mode,
      ]);
      expect(modes).toEqual(
        expect.arrayContaining([
          ['pk_test_', 'test'],
          ['pk_live_', 'live'],
        ]),
      );
      expect(modes.every(([prefix, mode]) => prefix === `pk_${mode}_`)).toBe(true);
    });

    it('refuses any other mode with 400 invalid_request on `mode`', async () => {
      for (const mode of ['sandbox', 'TEST', 1, true]) {
        const res = await issue({ mode }).expect(400);
        expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'mode' });
      }
    });

    it('reveals, revokes and audits a test credential as it does a live one', async () => {
      const test = (await issue({ mode: 'test' }).expect(201)).body.credential;
      const auth = `Bearer ${test.publicKey}:${test.secret}`;
      await request(h.api.url).get('/v1/swaps').set('Authorization', auth).expect(200);
      const revealed = await request(h.api.url)
        .post(`/admin/credentials/${test.publicKey}/reveal`)
        .set('Authorization', ADMIN)
        .expect(200);
      expect(revealed.body.credential.secret).toBe(test.secret);
      const revoked = await request(h.api.url)
        .post(`/admin/credentials/${test.publicKey}/revoke`)
        .set('Authorization', ADMIN)
        .expect(200);
      expect(revoked.body.credential).toMatchObject({
        mode: 'test',
        revokedAt: expect.any(String),
      });
      await waitUntil(
        'the revoked test credential to be refused',
        async () =>
          (await request(h.api.url).get('/v1/swaps').set('Authorization', auth)).status === 401,
        5000,
        100,
      );
      const audit = await request(h.api.url)
        .get('/admin/audit?limit=50')
        .set('Authorization', ADMIN)
        .expect(200);
      const actions = (audit.body.entries as { action: string; targetId: string }[])
        .filter((e) => e.targetId === test.publicKey)
        .map((e) => e.action);
      expect(actions).toEqual(
        expect.arrayContaining(['credential.create', 'credential.reveal', 'credential.revoke']),
      );
    });

    it('refuses a key and a secret of different modes as it refuses any bad credential', async () => {
      const live = (await issue().expect(201)).body.credential;
      const test = (await issue({ mode: 'test' }).expect(201)).body.credential;
      for (const auth of [
        `Bearer ${live.publicKey}:${test.secret}`,
        `Bearer ${test.publicKey}:${live.secret}`,
        `Bearer ${test.publicKey}:${test.secret.replace('sk_test_', 'sk_live_')}`,
      ]) {
        const res = await request(h.api.url)
          .get('/v1/swaps')
          .set('Authorization', auth)
          .expect(401);
        expect(res.body.error.code).toBe('unauthenticated');
      }
    });
  });

  describe('what a test credential is allowed', () => {
    it('quotes and creates while the organization is pending review; live still answers 403', async () => {
      const test = await h.newPartner({ status: 'pending_review', mode: 'test' });
      const live = await issueCredential(h.api.app, test, 'live');
      await quote(test).expect(200);
      const swap = await createSwap(test);
      expect(swap).toMatchObject({ status: 'waiting', livemode: false });
      const refused = await quote(live).expect(403);
      expect(refused.body.error.code).toBe('org_pending_review');
    });

    it('needs no provider account: no provider_credential_pending in test mode', async () => {
      const test = await h.newPartner({ providerActivated: false, mode: 'test' });
      const live = await issueCredential(h.api.app, test, 'live');
      await quote(test).expect(200);
      await createSwap(test);
      const pending = await quote(live).expect(503);
      expect(pending.body.error.code).toBe('provider_credential_pending');
    });

    it.each([
      ['suspended', 'org_suspended'],
      ['rejected', 'org_rejected'],
    ] as const)('answers 403 for a %s organization', async (status, code) => {
      const test = await h.newPartner({ status, mode: 'test' });
      for (const res of [
        await quote(test),
        await request(h.api.url).get('/v1/swaps').set('Authorization', test.authorization),
        await request(h.api.url)
          .get('/v1/test_helpers/addresses?currency=eth')
          .set('Authorization', test.authorization),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.error).toMatchObject({ type: 'authorization_error', code });
      }
    });
  });

  describe('the mode as a value', () => {
    it("sends a creation outside any request to its credential's own provider, never the other", async () => {
      const creation = h.api.app.get(SwapCreationService);
      const authenticator = h.api.app.get(CredentialAuthenticator);
      const testPartner = await h.newPartner({ mode: 'test' });
      // Only the create calls: the poller process polls both sandboxes meanwhile.
      const creates = async () =>
        Promise.all(
          [h.sandbox, testSandbox].map(
            async (sandbox) => (await sandbox.control.stats()).calls.createTransaction ?? 0,
          ),
        );
      const [liveBefore, testBefore] = await creates();
      // Authenticated as the guard does, but served outside the request context it would fill.
      const authenticated = await authenticator.authenticate(testPartner.authorization);

      const { swap } = await creation.create(authenticated, randomUUID(), {
        from: 'btc',
        to: 'eth',
        amountFrom: '0.1',
        address: '0x' + 'a'.repeat(40),
      });

      expect(swap.livemode).toBe(false);
      expect(await creates()).toEqual([liveBefore, testBefore + 1]);
    });
  });

  describe('separation', () => {
    let live: TestPartner;
    let test: TestPartner;
    let otherTest: TestPartner;
    let liveSwap: Swap;
    let testSwap: Swap;

    beforeAll(async () => {
      live = await h.newPartner();
      test = await issueCredential(h.api.app, live, 'test');
      otherTest = await h.newPartner({ mode: 'test' });
      liveSwap = await createSwap(live, {}, test);
      testSwap = await createSwap(test);
    });

    it('marks every swap with livemode', () => {
      expect(liveSwap.livemode).toBe(true);
      expect(testSwap.livemode).toBe(false);
    });

    it('lists only the swaps of the credential’s mode', async () => {
      const ids = async (who: TestPartner) =>
        (
          (await request(h.api.url).get('/v1/swaps').set('Authorization', who.authorization)).body
            .swaps as Swap[]
        ).map((s) => s.id);
      expect(await ids(live)).toEqual([liveSwap.id]);
      expect(await ids(test)).toEqual([testSwap.id]);
      expect(await ids(otherTest)).toEqual([]);
    });

    it('answers 404 for a swap of the other mode, both ways', async () => {
      await getSwap(live, liveSwap.id).expect(200);
      await getSwap(test, testSwap.id).expect(200);
      for (const res of [
        await getSwap(test, liveSwap.id),
        await getSwap(live, testSwap.id),
        await getSwap(otherTest, testSwap.id),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('not_found');
      }
    });

    it('redeems a fixed rate only in the mode it was quoted in', async () => {
      const fixed = await quote(test, { mode: 'fixed' }).expect(200);
      const res = await request(h.api.url)
        .post('/v1/swaps')
        .set('Authorization', live.authorization)
        .set('Idempotency-Key', randomUUID())
        .send({
          from: 'btc',
          to: 'eth',
          amountFrom: '0.1',
          mode: 'fixed',
          rateId: fixed.body.quote.rateId,
          address: await address(test),
          refundAddress: await address(test, 'btc'),
        })
        .expect(409);
      expect(res.body.error.code).toBe('rate_expired');
    });

    it('sends test calls to the test provider only', async () => {
      const before = (await h.sandbox.control.stats()).calls.createTransaction ?? 0;
      await createSwap(test);
      expect((await h.sandbox.control.stats()).calls.createTransaction ?? 0).toBe(before);
      expect((await testSandbox.control.stats()).calls.createTransaction).toBeGreaterThan(0);
    });

    it('keeps idempotency keys per credential: the same key in both modes makes two swaps', async () => {
      const key = randomUUID();
      const body = { from: 'btc', to: 'eth', amountFrom: '0.1', address: await address(test) };
      const create = (who: TestPartner) =>
        request(h.api.url)
          .post('/v1/swaps')
          .set('Authorization', who.authorization)
          .set('Idempotency-Key', key)
          .send(body)
          .expect(201);
      const [a, b] = [await create(live), await create(test)];
      expect(a.body.swap.id).not.toBe(b.body.swap.id);
      expect([a.body.swap.livemode, b.body.swap.livemode]).toEqual([true, false]);
      const replay = await create(test);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body.swap.id).toBe(b.body.swap.id);
    });
  });

  describe('test helpers', () => {
    let test: TestPartner;
    let live: TestPartner;

    // A credential per test: the helpers count against the partner limits like any endpoint.
    beforeEach(async () => {
      test = await h.newPartner({ mode: 'test' });
      live = await issueCredential(h.api.app, test, 'live');
    });

    it('moves a float test swap to finished within 10 s of a deposit', async () => {
      const swap = await createSwap(test);
      const started = Date.now();
      const deposited = await helper(test, swap.id, 'deposit', {}).expect(200);
      expect(deposited.body.swap).toMatchObject({ id: swap.id, livemode: false });
      expect(deposited.body.swap.status).not.toBe('waiting');
      await msUntilStatus(test, swap.id, 'finished', 10_000);
      const tookMs = Date.now() - started;
      process.stdout.write(`test mode: deposit to finished in ${tookMs} ms\n`);
      expect(tookMs).toBeLessThanOrEqual(10_000);
    });

    it.each(HELPER_STATUSES)('forces %s, shown at once and within 3 s', async (status) => {
      const swap = await createSwap(test);
      const started = Date.now();
      const forced = await helper(test, swap.id, 'status', { status }).expect(200);
      expect(forced.body.swap).toMatchObject({ id: swap.id, status });
      expect((await getSwap(test, swap.id)).body.swap.status).toBe(status);
      expect(Date.now() - started).toBeLessThanOrEqual(3000);
    });

    it('refuses a status a swap cannot move to with 409 conflict, naming `status`', async () => {
      const swap = await createSwap(test);
      await helper(test, swap.id, 'status', { status: 'failed' }).expect(200);
      const res = await helper(test, swap.id, 'status', { status: 'confirming' }).expect(409);
      expect(res.body.error).toMatchObject({ type: 'conflict', code: 'conflict', param: 'status' });
    });

    it('refuses a status outside the list with 400 invalid_request on `status`', async () => {
      const swap = await createSwap(test);
      for (const status of ['waiting', 'new', 'FINISHED', '', null, 5]) {
        const res = await helper(test, swap.id, 'status', { status }).expect(400);
        expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'status' });
      }
      const bodyless = await request(h.api.url)
        .post(`/v1/test_helpers/swaps/${swap.id}/status`)
        .set('Authorization', test.authorization)
        .set('Content-Type', 'application/json')
        .expect(400);
      expect(bodyless.body.error).toMatchObject({ code: 'invalid_request', param: 'status' });
    });

    it('answers 404 for an unknown id, another organization’s swap and a live swap', async () => {
      const other = await h.newPartner({ mode: 'test' });
      const othersSwap = await createSwap(other);
      const liveSwap = await createSwap(live, {}, test);
      for (const id of ['0123456789abcdef', 'nope', othersSwap.id, liveSwap.id]) {
        for (const res of [
          await helper(test, id, 'deposit', {}),
          await helper(test, id, 'status', { status: 'finished' }),
        ]) {
          expect(res.status).toBe(404);
          expect(res.body.error).toMatchObject({ type: 'not_found', code: 'not_found' });
        }
      }
      expect((await getSwap(other, othersSwap.id)).body.swap.status).toBe('waiting');
    });

    it('answers a live credential 403 test_mode_only on every helper, naming pk_test_', async () => {
      const swap = await createSwap(test);
      for (const res of [
        await helper(live, swap.id, 'deposit', {}),
        await helper(live, swap.id, 'status', { status: 'finished' }),
        await request(h.api.url)
          .get('/v1/test_helpers/addresses?currency=eth')
          .set('Authorization', live.authorization),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.error).toMatchObject({
          type: 'authorization_error',
          code: 'test_mode_only',
        });
        expect(res.body.error.message).toContain('pk_test_');
      }
      expect((await getSwap(test, swap.id)).body.swap.status).toBe('waiting');
    });

    it('validates the deposit body before anything moves', async () => {
      const swap = await createSwap(test);
      for (const [body, param] of [
        [{ amount: 0.1 }, 'amount'],
        [{ amount: 'abc' }, 'amount'],
        [{ amount: '-1' }, 'amount'],
        [{ late: 'yes' }, 'late'],
      ] as const) {
        const res = await helper(test, swap.id, 'deposit', body).expect(400);
        expect(res.body.error).toMatchObject({ type: 'validation_error', param });
      }
      expect((await getSwap(test, swap.id)).body.swap.status).toBe('waiting');
    });

    it('ends a fixed swap expired on a short deposit and on a late one', async () => {
      for (const deposit of [{ amount: '0.05' }, { late: true }]) {
        const fixed = await quote(test, { mode: 'fixed' }).expect(200);
        const swap = await createSwap(test, {
          mode: 'fixed',
          rateId: fixed.body.quote.rateId,
          refundAddress: await address(test, 'btc'),
        });
        await helper(test, swap.id, 'deposit', deposit).expect(200);
        await msUntilStatus(test, swap.id, 'expired', 10_000);
      }
    });

    it('refuses a second deposit once the swap has moved on with 409 conflict', async () => {
      const swap = await createSwap(test);
      await helper(test, swap.id, 'deposit', {}).expect(200);
      const res = await helper(test, swap.id, 'deposit', {}).expect(409);
      expect(res.body.error).toMatchObject({ type: 'conflict', code: 'conflict' });
    });
  });

  describe('address helper', () => {
    let test: TestPartner;

    beforeAll(async () => {
      test = await h.newPartner({ mode: 'test' });
    });

    it('gives three valid addresses of every listed currency', async () => {
      const currencies = await request(h.api.url)
        .get('/v1/currencies')
        .set('Authorization', test.authorization)
        .expect(200);
      const tickers = (currencies.body.currencies as { ticker: string }[]).map((c) => c.ticker);
      expect(tickers.length).toBeGreaterThan(3);
      // Each check spends an upstream slot: at 10/s, a loaded machine may wait past a slot's
      // deadline, and the partner is told to come back after Retry-After.
      for (const currency of tickers) {
        const res = await honouringRetryAfter(() =>
          request(h.api.url)
            .get(`/v1/test_helpers/addresses?currency=${currency}`)
            .set('Authorization', test.authorization),
        );
        expect(res.status).toBe(200);
        const addresses = res.body.addresses as string[];
        expect(addresses.length).toBeGreaterThanOrEqual(3);
        expect(new Set(addresses).size).toBe(addresses.length);
        for (const candidate of addresses) {
          const check = await honouringRetryAfter(() =>
            request(h.api.url)
              .post('/v1/addresses/validate')
              .set('Authorization', test.authorization)
              .send({ currency, address: candidate }),
          );
          expect({ currency, candidate, status: check.status, ...check.body }).toMatchObject({
            status: 200,
            valid: true,
          });
        }
      }
    }, 120_000);

    it('gives addresses that pass the strict check of POST /v1/swaps', async () => {
      for (const [from, to, amountFrom] of [
        ['eth', 'btc', '1'],
        ['btc', 'ltc', '0.1'],
        ['btc', 'sol', '0.1'],
        ['btc', 'bch', '0.1'],
        ['btc', 'ada', '0.1'],
      ]) {
        const swap = await createSwap(test, {
          from,
          to,
          amountFrom,
          address: await address(test, to),
        });
        expect(swap.livemode).toBe(false);
      }
    });

    it('answers 400 pair_unsupported for an unknown ticker and 400 for none', async () => {
      const unknown = await request(h.api.url)
        .get('/v1/test_helpers/addresses?currency=nosuchcoin')
        .set('Authorization', test.authorization)
        .expect(400);
      expect(unknown.body.error.code).toBe('pair_unsupported');
      const none = await request(h.api.url)
        .get('/v1/test_helpers/addresses')
        .set('Authorization', test.authorization)
        .expect(400);
      expect(none.body.error).toMatchObject({ code: 'invalid_request', param: 'currency' });
    });
  });

  describe('earnings', () => {
    it('books nothing for a finished test swap', async () => {
      const test = await h.newPartner({ mode: 'test', feePercent: '2' });
      const swap = await createSwap(test);
      await helper(test, swap.id, 'status', { status: 'finished' }).expect(200);
      await msUntilStatus(test, swap.id, 'finished', 3000);
      // Two test-lane cycles: long enough for anything the poller would book.
      await new Promise((resolve) => setTimeout(resolve, 4500));
      const [queued] = await h.db.query<{ n: string }[]>(
        `SELECT (SELECT count(*) FROM earnings_pending WHERE swap_id = $1)
              + (SELECT count(*) FROM earnings_ledger WHERE swap_id = $1) AS n`,
        [swap.id],
      );
      expect(Number(queued.n)).toBe(0);
      const earnings = await request(h.api.url)
        .get(`/admin/organizations/${test.organizationId}/earnings`)
        .set('Authorization', ADMIN)
        .expect(200);
      expect(earnings.body.earnings).toMatchObject({ balanceUsd: '0', entries: [], payouts: [] });
    }, 15_000);
  });

  describe('budgets', () => {
    it('serves live quotes without upstream_rate_limited while test traffic is at its cap', async () => {
      const testers = await Promise.all(
        Array.from({ length: 4 }, () => h.newPartner({ mode: 'test' })),
      );
      const livePartner = await h.newPartner();
      const until = Date.now() + 3000;
      const testCodes: string[] = [];
      const liveStatuses: number[] = [];
      // The flood lasts as long as the live quotes do: at least 3 s and at least 5 live quotes,
      // however slowly a loaded machine answers them.
      let liveDone = false;
      // 32 quotes always waiting at 10/s is more than the 2.5 s a partner call may wait for the
      // budget: the test cap answers however fast the machine is.
      const flood = testers.flatMap((tester) =>
        Array.from({ length: 8 }, async () => {
          while (!liveDone) {
            const res = await quote(tester);
            testCodes.push(res.status === 200 ? 'ok' : res.body.error.code);
          }
        }),
      );
      const steady = (async () => {
        try {
          while (Date.now() < until || liveStatuses.length < 5) {
            const res = await quote(livePartner);
            liveStatuses.push(res.status);
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
        } finally {
          liveDone = true;
        }
      })();
      await Promise.all([...flood, steady]);
      const rateLimited = testCodes.filter((c) => c === 'upstream_rate_limited').length;
      process.stdout.write(
        `test budget at cap: ${testCodes.length} test quotes, ${rateLimited} upstream_rate_limited; ` +
          `${liveStatuses.length} live quotes\n`,
      );
      expect(rateLimited).toBeGreaterThan(0);
      expect(liveStatuses.length).toBeGreaterThanOrEqual(5);
      expect(liveStatuses.every((s) => s === 200)).toBe(true);
    }, 60_000);
  });
});

describe('Test mode without a test provider', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ api: { TEST_PROVIDER_URL: undefined } });
  });

  afterAll(async () => {
    await h?.close();
  });

  it('answers test-mode quotes and creates 503 upstream_not_configured', async () => {
    const test = await h.newPartner({ mode: 'test' });
    const live = await issueCredential(h.api.app, test, 'live');
    const body = { from: 'btc', to: 'eth', amountFrom: '0.1' };
    const quoted = await request(h.api.url)
      .post('/v1/quotes')
      .set('Authorization', test.authorization)
      .send(body)
      .expect(503);
    expect(quoted.body.error).toMatchObject({
      type: 'upstream_error',
      code: 'upstream_not_configured',
    });
    const created = await request(h.api.url)
      .post('/v1/swaps')
      .set('Authorization', test.authorization)
      .set('Idempotency-Key', randomUUID())
      .send({ ...body, address: '0x52908400098527886E0F7030069857D2E4169EE7' })
      .expect(503);
    expect(created.body.error.code).toBe('upstream_not_configured');
    await request(h.api.url)
      .post('/v1/quotes')
      .set('Authorization', live.authorization)
      .send(body)
      .expect(200);
  });
});
