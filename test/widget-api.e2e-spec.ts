import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { asset } from '../apps/api/platform/assets/asset.registry.js';
import { issueCredential, type TestPartner } from './factories/partners.js';
import { testApiEnv, TEST_ADMIN_TOKEN } from './support/api.js';
import { admin, CLI_RUN_MS } from './support/cli.js';
import { startHarness, type Harness } from './support/harness.js';
import { spawnServices, type ServiceProcess } from './support/processes.js';
import { waitUntil } from './support/wait.js';
import { altered } from './support/tamper.js';

const ADMIN = `Bearer ${TEST_ADMIN_TOKEN}`;
const SHOP = 'https://shop.example';
const OTHER_SHOP = 'http://localhost:4100';
const STRANGER = 'https://evil.example';

interface WidgetKey {
  key: string;
  mode: string;
  name: string;
  allowedOrigins: string[];
  createdAt: string;
}

interface Swap {
  id: string;
  status: string;
  livemode: boolean;
  payinAddress: string;
}

/**
 * The swap widget's keys and browser API (`/widget-api/v1`) against a real api, Postgres, Redis
 * and the sandbox (live and test); the cross-replica rules against two api processes.
 */
describe('Widget keys and the widget API', () => {
  let h: Harness;
  let tester: TestPartner;
  let testKey: WidgetKey;
  let liveKey: WidgetKey;
  let ipNo = 0;

  /** Every request from an address of its own, so per-IP limits never meet unless a test wants. */
  function nextIp(): string {
    ipNo += 1;
    return `10.9.${(ipNo >> 8) & 255}.${ipNo & 255}`;
  }

  function createKey(organizationId: string, body: object, url = h.api.url): request.Test {
    return request(url)
      .post(`/admin/organizations/${organizationId}/widget_keys`)
      .set('Authorization', ADMIN)
      .set('X-Forwarded-For', nextIp())
      .send(body);
  }

  async function newKey(organizationId: string, mode: 'live' | 'test'): Promise<WidgetKey> {
    const res = await createKey(organizationId, {
      mode,
      name: `${mode} shop`,
      allowedOrigins: [SHOP, OTHER_SHOP],
    });
    expect(res.status).toBe(201);
    return (res.body as { widgetKey: WidgetKey }).widgetKey;
  }

  function widget(
    method: 'get' | 'post',
    path: string,
    key: string,
    origin: string | null = SHOP,
    ip = nextIp(),
  ): request.Test {
    const req = request(h.api.url)
      [method](`/widget-api/v1${path}`)
      .set('X-Widget-Key', key)
      .set('X-Forwarded-For', ip);
    return origin === null ? req : req.set('Origin', origin);
  }

  async function testAddress(currency = 'eth'): Promise<string> {
    const res = await request(h.api.url)
      .get(`/v1/test_helpers/addresses?currency=${currency}`)
      .set('Authorization', tester.authorization)
      .set('X-Forwarded-For', nextIp())
      .expect(200);
    return (res.body as { addresses: string[] }).addresses[0];
  }

  async function createSwap(
    key: string,
    idempotencyKey = randomUUID(),
    ip = nextIp(),
  ): Promise<request.Response> {
    return widget('post', '/swaps', key, SHOP, ip)
      .set('Idempotency-Key', idempotencyKey)
      .send({ from: 'btc', to: 'eth', amountFrom: '0.1', address: await testAddress() });
  }

  beforeAll(async () => {
    h = await startHarness({
      sandbox: { stepMs: 300 },
      api: { TRUST_PROXY_HOPS: '1' },
      partner: { feePercent: '2' },
    });
    tester = await issueCredential(h.api.app, h.partner, 'test');
    testKey = await newKey(h.partner.organizationId, 'test');
    liveKey = await newKey(h.partner.organizationId, 'live');
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  describe('keys', () => {
    it('creates a key with exactly the documented fields, audited', async () => {
      const res = await createKey(h.partner.organizationId, {
        mode: 'test',
        name: 'Checkout',
        allowedOrigins: ['HTTPS://Checkout.Example:443', 'http://localhost:8080'],
      });

      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        widgetKey: {
          key: expect.stringMatching(/^wk_test_[0-9a-f]{32}$/) as string,
          mode: 'test',
          name: 'Checkout',
          allowedOrigins: ['https://checkout.example', 'http://localhost:8080'],
          createdAt: expect.any(String) as string,
        },
      });
      const { key } = (res.body as { widgetKey: WidgetKey }).widgetKey;
      const audit = await request(h.api.url)
        .get('/admin/audit')
        .set('Authorization', ADMIN)
        .set('X-Forwarded-For', nextIp())
        .expect(200);
      expect(JSON.stringify(audit.body)).toContain(key);
      expect(JSON.stringify(audit.body)).toContain('widget_key.create');
      expect(liveKey.key).toMatch(/^wk_live_[0-9a-f]{32}$/);
    });

    it.each([
      ['none', []],
      ['a path', ['https://shop.example/checkout']],
      ['a trailing slash', ['https://shop.example/']],
      ['a wildcard', ['https://*.shop.example']],
      ['another scheme', ['ftp://shop.example']],
      ['a bare host', ['shop.example']],
      ['more than 20', Array.from({ length: 21 }, (_, i) => `https://s${i}.example`)],
      ['not a list', 'https://shop.example'],
      ['a number', [42]],
      ['null', null],
      ['a NUL', ['https://shop.example\u0000']],
      ['a lone surrogate', ['https://shop.example\ud800']],
    ])('refuses allowed origins with %s: 400 naming allowedOrigins', async (_, allowedOrigins) => {
      const res = await createKey(h.partner.organizationId, {
        mode: 'test',
        name: 'Bad',
        allowedOrigins,
      });

      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'validation_error', param: 'allowedOrigins' });
    });

    it('accepts 20 origins', async () => {
      const allowedOrigins = Array.from({ length: 20 }, (_, i) => `https://s${i}.example`);
      const res = await createKey(h.partner.organizationId, {
        mode: 'test',
        name: 'Many',
        allowedOrigins,
      });

      expect(res.status).toBe(201);
    });

    it.each([
      [{ mode: 'sandbox', name: 'x', allowedOrigins: [SHOP] }, 'mode'],
      [{ mode: 'test', name: '', allowedOrigins: [SHOP] }, 'name'],
      [{ mode: 'test', name: 'x'.repeat(101), allowedOrigins: [SHOP] }, 'name'],
      [{ mode: 'test', name: { $ne: 1 }, allowedOrigins: [SHOP] }, 'name'],
      [{ mode: 'test', name: 'x', allowedOrigins: [SHOP], extra: 1 }, 'extra'],
    ])('refuses %j naming %s', async (body, param) => {
      const res = await createKey(h.partner.organizationId, body);

      expect(res.status).toBe(400);
      expect(res.body.error.param).toBe(param);
    });

    it('issues live keys only to active organizations; test keys also while under review', async () => {
      const pending = await h.newPartner({ status: 'pending_review' });

      const live = await createKey(pending.organizationId, {
        mode: 'live',
        name: 'x',
        allowedOrigins: [SHOP],
      });
      const test = await createKey(pending.organizationId, {
        mode: 'test',
        name: 'x',
        allowedOrigins: [SHOP],
      });

      expect(live.status).toBe(400);
      expect(live.body.error.param).toBe('mode');
      expect(test.status).toBe(201);
    });

    it('answers 404 for an unknown organization or key, 401 without the admin token', async () => {
      await createKey(randomUUID(), { mode: 'test', name: 'x', allowedOrigins: [SHOP] }).expect(
        404,
      );
      await request(h.api.url)
        .post(`/admin/widget_keys/wk_test_${'0'.repeat(32)}/revoke`)
        .set('Authorization', ADMIN)
        .set('X-Forwarded-For', nextIp())
        .expect(404);
      await request(h.api.url)
        .get(`/admin/organizations/${h.partner.organizationId}/widget_keys`)
        .set('X-Forwarded-For', nextIp())
        .expect(401);
    });

    it('lists the keys of an organization, revoked ones with their revocation time', async () => {
      const doomed = await newKey(h.partner.organizationId, 'test');
      await request(h.api.url)
        .post(`/admin/widget_keys/${doomed.key}/revoke`)
        .set('Authorization', ADMIN)
        .set('X-Forwarded-For', nextIp())
        .expect(200);

      const res = await request(h.api.url)
        .get(`/admin/organizations/${h.partner.organizationId}/widget_keys`)
        .set('Authorization', ADMIN)
        .set('X-Forwarded-For', nextIp())
        .expect(200);

      const keys = (res.body as { widgetKeys: (WidgetKey & { revokedAt: string | null })[] })
        .widgetKeys;
      expect(keys.find((k) => k.key === testKey.key)?.revokedAt).toBeNull();
      expect(keys.find((k) => k.key === doomed.key)?.revokedAt).toEqual(expect.any(String));
      await widget('get', '/currencies', doomed.key).expect(401);
    });
  });

  describe('origins and CORS', () => {
    it('answers a listed origin with its CORS headers', async () => {
      const res = await widget('get', '/currencies', testKey.key, SHOP).expect(200);

      expect(res.headers['access-control-allow-origin']).toBe(SHOP);
      expect(res.headers.vary).toMatch(/Origin/);
      expect(res.headers['ratelimit-policy']).toBeDefined();
      expect(res.headers['x-request-id']).toBeDefined();
    });

    it.each([
      ['an unlisted origin', { Origin: STRANGER }],
      ['no Origin and no Sec-Fetch-Site', {}],
      ['a cross-site fetch without Origin', { 'Sec-Fetch-Site': 'cross-site' }],
      ['the opaque origin', { Origin: 'null' }],
      ['a listed origin spelled with a path', { Origin: `${SHOP}/` }],
    ])('refuses %s with 403 origin_not_allowed and no CORS headers', async (_, headers) => {
      const res = await widget('get', '/currencies', testKey.key, null).set(headers).expect(403);

      expect(res.body.error).toMatchObject({
        type: 'authorization_error',
        code: 'origin_not_allowed',
      });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('admits the hosted widget page itself: its own origin, or same-origin without Origin', async () => {
      const own = new URL(h.api.url);
      const sameOrigin = await widget('get', '/currencies', testKey.key, `http://${own.host}`);
      const noOrigin = await widget('get', '/currencies', testKey.key, null).set(
        'Sec-Fetch-Site',
        'same-origin',
      );

      expect(sameOrigin.status).toBe(200);
      expect(sameOrigin.headers['access-control-allow-origin']).toBeUndefined();
      expect(noOrigin.status).toBe(200);
    });

    it('never takes its own origin from Host: a foreign Origin naming itself as Host is refused', async () => {
      const res = await widget('get', '/currencies', testKey.key, 'http://evil.example').set(
        'Host',
        'evil.example',
      );

      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('origin_not_allowed');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('refuses a call that changes something without an Origin, same-origin or not', async () => {
      const res = await widget('post', '/quotes', testKey.key, null)
        .set('Sec-Fetch-Site', 'same-origin')
        .send({ from: 'btc', to: 'eth', amountFrom: '0.1' });

      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('origin_not_allowed');
    });

    it('answers unknown, malformed and missing keys 401 unauthenticated', async () => {
      for (const key of [`wk_test_${'a'.repeat(32)}`, 'pk_test_123', '', 'wk_live_']) {
        const res = await widget('get', '/currencies', key, SHOP);
        expect(res.status).toBe(401);
        expect(res.body.error).toMatchObject({
          type: 'authentication_error',
          code: 'unauthenticated',
        });
      }
      await request(h.api.url)
        .get('/widget-api/v1/currencies')
        .set('Origin', SHOP)
        .set('X-Forwarded-For', nextIp())
        .expect(401);
    });

    it('never takes a partner credential', async () => {
      await request(h.api.url)
        .get('/widget-api/v1/currencies')
        .set('Authorization', tester.authorization)
        .set('Origin', SHOP)
        .set('X-Forwarded-For', nextIp())
        .expect(401);
    });

    it('allows a preflight from an origin some active key lists, and only that', async () => {
      const listed = await request(h.api.url)
        .options('/widget-api/v1/swaps')
        .set('Origin', OTHER_SHOP)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'content-type,idempotency-key,x-widget-key')
        .expect(204);
      const unlisted = await request(h.api.url)
        .options('/widget-api/v1/swaps')
        .set('Origin', STRANGER)
        .set('Access-Control-Request-Method', 'POST');

      expect(listed.headers).toMatchObject({
        'access-control-allow-origin': OTHER_SHOP,
        vary: 'Origin',
      });
      const allowed = String(listed.headers['access-control-allow-headers']).toLowerCase();
      for (const header of ['content-type', 'idempotency-key', 'x-widget-key', 'x-swap-token']) {
        expect(allowed).toContain(header);
      }
      expect(unlisted.headers['access-control-allow-origin']).toBeUndefined();
      expect(unlisted.headers['access-control-allow-headers']).toBeUndefined();
    });
  });

  describe('swaps', () => {
    it('creates a swap of the key organization and mode with a status token', async () => {
      const res = await createSwap(testKey.key);

      expect(res.status).toBe(201);
      const { swap, statusToken } = res.body as { swap: Swap; statusToken: string };
      expect(swap.livemode).toBe(false);
      expect(Buffer.from(statusToken, 'base64url').length).toBeGreaterThanOrEqual(16);
      const listed = await request(h.api.url)
        .get('/v1/swaps')
        .set('Authorization', tester.authorization)
        .set('X-Forwarded-For', nextIp())
        .expect(200);
      expect((listed.body as { swaps: Swap[] }).swaps.map((s) => s.id)).toContain(swap.id);
      const rows: { status_token_hash: string }[] = await h.db.query(
        'SELECT status_token_hash FROM widget_swaps WHERE swap_id = $1',
        [swap.id],
      );
      expect(rows[0].status_token_hash).toBe(
        createHash('sha256').update(statusToken).digest('hex'),
      );
      const stored = JSON.stringify(
        await h.db.query('SELECT * FROM swaps s JOIN widget_swaps w ON w.swap_id = s.id'),
      );
      expect(stored).not.toContain(statusToken);
    });

    it('replays a retried creation with the same swap and token', async () => {
      const idempotencyKey = randomUUID();
      const address = await testAddress();
      const send = () =>
        widget('post', '/swaps', testKey.key)
          .set('Idempotency-Key', idempotencyKey)
          .send({ from: 'btc', to: 'eth', amountFrom: '0.1', address });

      const first = await send().expect(201);
      const replay = await send().expect(201);

      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(first.body);
    });

    it('creates a fixed-rate swap from a fixed quote of the same key, once', async () => {
      const quoted = await widget('post', '/quotes', testKey.key)
        .send({ from: 'btc', to: 'eth', amountFrom: '0.1', mode: 'fixed' })
        .expect(200);
      const { rateId } = (quoted.body as { quote: { rateId: string } }).quote;
      const body = {
        from: 'btc',
        to: 'eth',
        amountFrom: '0.1',
        mode: 'fixed',
        rateId,
        address: await testAddress(),
        refundAddress: await testAddress('btc'),
      };

      const created = await widget('post', '/swaps', testKey.key)
        .set('Idempotency-Key', randomUUID())
        .send(body);
      const again = await widget('post', '/swaps', testKey.key)
        .set('Idempotency-Key', randomUUID())
        .send(body);
      const noRefund = await widget('post', '/swaps', testKey.key)
        .set('Idempotency-Key', randomUUID())
        .send({ ...body, refundAddress: undefined });

      expect(created.status).toBe(201);
      expect((created.body as { swap: { mode: string; payTill: string } }).swap).toMatchObject({
        mode: 'fixed',
        payTill: expect.any(String) as string,
      });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('rate_expired');
      expect(noRefund.status).toBe(400);
      expect(noRefund.body.error.code).toBe('missing_refund_address');
    });

    it('follows the partner API rules: Idempotency-Key, body, addresses', async () => {
      const address = await testAddress();
      const noKey = await widget('post', '/swaps', testKey.key).send({
        from: 'btc',
        to: 'eth',
        amountFrom: '0.1',
        address,
      });
      const badAddress = await widget('post', '/swaps', testKey.key)
        .set('Idempotency-Key', randomUUID())
        .send({ from: 'btc', to: 'eth', amountFrom: '0.1', address: '0xnope' });
      const numberAmount = await widget('post', '/swaps', testKey.key)
        .set('Idempotency-Key', randomUUID())
        .send({ from: 'btc', to: 'eth', amountFrom: 0.1, address });

      expect(noKey.status).toBe(400);
      expect(noKey.body.error.param).toBe('Idempotency-Key');
      expect(badAddress.status).toBe(400);
      expect(badAddress.body.error).toMatchObject({ code: 'invalid_address', param: 'address' });
      expect(numberAmount.status).toBe(400);
      expect(numberAmount.body.error.param).toBe('amountFrom');
    });

    it('reads a swap only with its token, and only through a key of its organization and mode', async () => {
      const created = await createSwap(testKey.key);
      expect(created.status).toBe(201);
      const { swap, statusToken } = created.body as { swap: Swap; statusToken: string };
      const other = await h.newPartner();
      const otherKey = await newKey(other.organizationId, 'test');
      const read = (key: string, token?: string) => {
        const req = widget('get', `/swaps/${swap.id}`, key);
        return token === undefined ? req : req.set('X-Swap-Token', token);
      };

      await read(testKey.key, statusToken).expect(200);
      await read(testKey.key).expect(404);
      await read(testKey.key, altered(statusToken)).expect(404);
      await read(testKey.key, 'x'.repeat(5000)).expect(404);
      await read(otherKey.key, statusToken).expect(404);
      await read(liveKey.key, statusToken).expect(404);
      await widget('get', `/swaps/${swap.id}/qr.svg`, otherKey.key)
        .set('X-Swap-Token', statusToken)
        .expect(404);
      await widget('post', `/test_helpers/swaps/${swap.id}/deposit`, otherKey.key)
        .set('X-Swap-Token', statusToken)
        .send({})
        .expect(404);
      // A partner API swap has no token at all.
      const api1 = await request(h.api.url)
        .post('/v1/swaps')
        .set('Authorization', tester.authorization)
        .set('Idempotency-Key', randomUUID())
        .set('X-Forwarded-For', nextIp())
        .send({ from: 'btc', to: 'eth', amountFrom: '0.1', address: await testAddress() })
        .expect(201);
      await read(testKey.key, altered(statusToken, 'start')).expect(404);
      await widget('get', `/swaps/${(api1.body as { swap: Swap }).swap.id}`, testKey.key)
        .set('X-Swap-Token', statusToken)
        .expect(404);
    });

    it('deposits to a test swap with its token; a live key gets 403 test_mode_only', async () => {
      const created = await createSwap(testKey.key);
      expect(created.status).toBe(201);
      const { swap, statusToken } = created.body as { swap: Swap; statusToken: string };

      const live = await widget('post', `/test_helpers/swaps/${swap.id}/deposit`, liveKey.key)
        .set('X-Swap-Token', statusToken)
        .send({});
      const deposited = await widget('post', `/test_helpers/swaps/${swap.id}/deposit`, testKey.key)
        .set('X-Swap-Token', statusToken)
        .send({})
        .expect(200);

      expect(live.status).toBe(403);
      expect(live.body.error.code).toBe('test_mode_only');
      expect((deposited.body as { swap: Swap }).swap.status).not.toBe('waiting');
    });

    it('draws the deposit address as an SVG QR code for the token holder', async () => {
      const created = await createSwap(testKey.key);
      expect(created.status).toBe(201);
      const { swap, statusToken } = created.body as { swap: Swap; statusToken: string };

      const res = await widget('get', `/swaps/${swap.id}/qr.svg`, testKey.key)
        .set('X-Swap-Token', statusToken)
        .buffer(true)
        .parse((response, done) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => done(null, text));
        })
        .expect(200);

      expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(res.body as string).toMatch(/^<svg/);
    });

    it('creates live swaps for the organization, earning its fee like its own', async () => {
      const res = await widget('post', '/quotes', liveKey.key)
        .send({ from: 'btc', to: 'eth', amountFrom: '0.1' })
        .expect(200);
      const swap = await widget('post', '/swaps', liveKey.key)
        .set('Idempotency-Key', randomUUID())
        .send({ from: 'btc', to: 'eth', amountFrom: '0.1', address: await testAddress() })
        .expect(201);

      expect((res.body as { quote: { amountTo: string } }).quote.amountTo).toBeDefined();
      const row: { organization_id: string; livemode: boolean }[] = await h.db.query(
        'SELECT organization_id, livemode FROM swaps WHERE id = $1',
        [(swap.body as { swap: Swap }).swap.id],
      );
      expect(row[0]).toEqual({ organization_id: h.partner.organizationId, livemode: true });
    });

    it('refuses a live key of an organization that is no longer active', async () => {
      const org = await h.newPartner();
      const key = await newKey(org.organizationId, 'live');
      await request(h.api.url)
        .patch(`/admin/organizations/${org.organizationId}`)
        .set('Authorization', ADMIN)
        .set('X-Forwarded-For', nextIp())
        .send({ status: 'suspended' })
        .expect(200);

      await waitUntil(
        'the suspension to reach the widget key',
        async () => (await widget('get', '/currencies', key.key)).status === 403,
        5_000,
      );
      const res = await widget('get', '/currencies', key.key);
      expect(res.body.error.code).toBe('org_suspended');
    });

    it('answers the hosted page of a suspended organization 404, as for an unknown key', async () => {
      const org = await h.newPartner();
      const live = await newKey(org.organizationId, 'live');
      const test = await newKey(org.organizationId, 'test');
      await request(h.api.url).get(`/widget?key=${live.key}`).expect(200);
      await request(h.api.url)
        .patch(`/admin/organizations/${org.organizationId}`)
        .set('Authorization', ADMIN)
        .set('X-Forwarded-For', nextIp())
        .send({ status: 'suspended' })
        .expect(200);

      await waitUntil(
        'the suspension to reach the widget key',
        async () => (await widget('get', '/currencies', live.key)).status === 403,
        5_000,
      );
      const unknown = await request(h.api.url).get(`/widget?key=wk_live_${'2'.repeat(32)}`);
      for (const key of [live.key, test.key]) {
        const page = await request(h.api.url).get(`/widget?key=${key}`);
        expect(page.status).toBe(404);
        expect(page.text).toBe(unknown.text);
        expect(page.text).not.toContain(key);
        expect((await widget('get', '/currencies', key)).status).toBe(403);
      }
    });
  });

  describe('limits', () => {
    it('allows 30 requests a second per key, then 429 with the headers', async () => {
      const key = await newKey(h.partner.organizationId, 'test');
      let refused: request.Response | undefined;
      for (let wave = 0; wave < 5 && !refused; wave += 1) {
        const answers = await Promise.all(
          Array.from({ length: 40 }, () => widget('get', '/currencies', key.key)),
        );
        refused = answers.find((res) => res.status === 429);
      }

      expect(refused?.body.error.code).toBe('rate_limited');
      expect(refused?.headers).toMatchObject({
        'ratelimit-limit': '30',
        'ratelimit-policy': '30;w=1',
        'access-control-allow-origin': SHOP,
      });
      expect(Number(refused?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    });

    it('never lets a burst on one key starve another organization of the upstream', async () => {
      const busy = await newKey((await h.newPartner()).organizationId, 'live');
      const quiet = await newKey((await h.newPartner()).organizationId, 'live');
      const quote = (key: string, amountFrom: string) =>
        widget('post', '/quotes', key).send({ from: 'btc', to: 'eth', amountFrom });

      // 25 quotes need 2.5 s of the shared 10 calls/s; the other organization asks meanwhile.
      const burst = Promise.all(Array.from({ length: 25 }, (_, i) => quote(busy.key, `0.1${i}`)));
      await new Promise((resolve) => setTimeout(resolve, 50));
      const started = Date.now();
      const other = await quote(quiet.key, '0.2');
      const waited = Date.now() - started;
      await burst;

      expect(other.status).toBe(200);
      expect(waited).toBeLessThan(2_500);
    });

    it('allows 10 swap creations a minute per address on a key', async () => {
      const key = await newKey(h.partner.organizationId, 'test');
      const ip = nextIp();
      const statuses: number[] = [];
      for (let i = 0; i < 11; i += 1) {
        // Refused bodies count as well: the limit stands before validation.
        const res = await widget('post', '/swaps', key.key, SHOP, ip).send({});
        statuses.push(res.status);
      }
      const otherAddress = await widget('post', '/swaps', key.key).send({});

      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
      expect(statuses[10]).toBe(429);
      expect(otherAddress.status).toBe(400);
    });
  });

  describe('hosted page and loader', () => {
    it('serves the widget only for a live key, framed only by its origins', async () => {
      const page = await request(h.api.url).get(`/widget?key=${testKey.key}`).expect(200);
      const unknown = await request(h.api.url).get(`/widget?key=wk_test_${'1'.repeat(32)}`);
      const missing = await request(h.api.url).get('/widget');

      expect(page.headers['content-security-policy']).toContain(
        `frame-ancestors ${SHOP} ${OTHER_SHOP}`,
      );
      expect(page.headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(page.headers['x-frame-options']).toBeUndefined();
      expect(page.text).toContain('Simulate deposit');
      expect(unknown.status).toBe(404);
      expect(missing.status).toBe(404);
    });

    it('serves the loader to any page, and version 1 with the bytes partners pinned', async () => {
      const current = await request(h.api.url).get('/widget.js').expect(200);
      const v1 = await request(h.api.url).get('/widget/v1.js').expect(200);
      const sri = (text: string) => `sha384-${createHash('sha384').update(text).digest('base64')}`;

      for (const loader of [current, v1]) {
        expect(loader.headers['access-control-allow-origin']).toBe('*');
        expect(loader.headers['cross-origin-resource-policy']).toBe('cross-origin');
      }
      expect(current.headers['cache-control']).toBe('public, max-age=300');
      expect(v1.headers['cache-control']).toBe('public, max-age=3600');
      expect(sri(current.text)).toBe(asset('loader.js').integrity);
      // Version 1 never changes: the hash the README publishes, and partners pin, is its own.
      expect(sri(v1.text)).toBe(asset('loader-v1.js').integrity);
      expect(asset('loader-v1.js').integrity).toBe(
        'sha384-LeFoUyUV6mw5HkVpgB5HyZZ/9UnsWyi5XvQvHGlj70c6sM4zeHSWoyLch2K3nZkj',
      );
      expect(readFileSync(join(process.cwd(), 'README.md'), 'utf8')).toContain(
        asset('loader-v1.js').integrity,
      );
      const gzipped = (['widget.js', 'loader.js'] as const).map(
        (name) => gzipSync(asset(name).body).length,
      );
      expect(gzipped[0] + gzipped[1]).toBeLessThan(30 * 1024);
    });
  });

  describe('fuzzed headers and fields', () => {
    const HOSTILE: unknown[] = [
      null,
      0,
      -1,
      1e308,
      true,
      [],
      {},
      [[[[[[[[[['deep']]]]]]]]]],
      '',
      'x'.repeat(70_000),
      '\u0000',
      'a\u0000b',
      '\ud800',
      '\u202e\u0000\u001b[31m',
      '%00',
      '../../etc/passwd',
      "'; DROP TABLE swaps; --",
      { $gt: '' },
    ];
    const HEADER_VALUES = ['', ' ', 'x'.repeat(8000), 'null', '\u00ff\u00fe', '%00', '"quoted"'];

    it('never answers 500 and always the envelope', async () => {
      const created = await createSwap(testKey.key);
      expect(created.status).toBe(201);
      const { swap } = created.body as { swap: Swap };
      const bodies: [string, string][] = [
        ['/quotes', 'amountFrom'],
        ['/quotes', 'from'],
        ['/quotes', 'mode'],
        ['/addresses/validate', 'address'],
        ['/addresses/validate', 'currency'],
        ['/swaps', 'address'],
        ['/swaps', 'refundAddress'],
        ['/swaps', 'rateId'],
        ['/swaps', 'partnerReferenceId'],
        [`/test_helpers/swaps/${swap.id}/deposit`, 'amount'],
      ];
      const base: Record<string, unknown> = {
        from: 'btc',
        to: 'eth',
        amountFrom: '0.1',
        currency: 'eth',
        address: '0x0000000000000000000000000000000000000000',
      };
      const answers: request.Response[] = [];
      for (const [path, field] of bodies) {
        for (const value of HOSTILE) {
          const body = path.includes('deposit') ? { [field]: value } : { ...base, [field]: value };
          answers.push(
            await widget('post', path, testKey.key)
              .set('Idempotency-Key', randomUUID())
              .set('X-Swap-Token', 'x')
              .send(body),
          );
        }
      }
      for (const header of [
        'X-Widget-Key',
        'Origin',
        'X-Swap-Token',
        'Idempotency-Key',
        'Sec-Fetch-Site',
      ]) {
        for (const value of HEADER_VALUES) {
          answers.push(
            await widget('get', `/swaps/${swap.id}`, testKey.key).set(header, value),
            await widget('post', '/swaps', testKey.key).set(header, value).send(base),
          );
        }
      }
      for (const path of [
        '/swaps/%00',
        `/swaps/${'a'.repeat(5000)}`,
        '/swaps/..%2f..%2fadmin',
        '/pairs?from[]=btc&to=eth',
        '/pairs?from=%00&to=eth',
        '/currencies?lite=maybe',
      ]) {
        answers.push(await widget('get', path, testKey.key));
      }
      answers.push(
        await widget('post', '/swaps', testKey.key)
          .set('Content-Type', 'application/json')
          .send('{"from":'),
        await widget('post', '/swaps', testKey.key).set('Content-Type', 'text/plain').send('x'),
      );

      for (const res of answers) {
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) {
          expect(Object.keys(res.body.error ?? {}).sort()).toEqual([
            'code',
            'message',
            'param',
            'retry_after_ms',
            'type',
            'upstream_code',
          ]);
        }
      }
    }, 120_000);
  });

  describe('admin CLI', () => {
    it(
      'creates, lists and revokes widget keys like the admin API, audited as the CLI',
      async () => {
        const created = await admin(
          'widget-key:create',
          h.partner.organizationId,
          '--name',
          'From the CLI',
          '--origin',
          SHOP,
          '--origin',
          OTHER_SHOP,
          '--test',
        );
        expect(created.code).toBe(0);
        const { widgetKey } = JSON.parse(created.stdout) as { widgetKey: WidgetKey };
        expect(widgetKey).toEqual({
          key: expect.stringMatching(/^wk_test_[0-9a-f]{32}$/) as string,
          mode: 'test',
          name: 'From the CLI',
          allowedOrigins: [SHOP, OTHER_SHOP],
          createdAt: expect.any(String) as string,
        });
        await widget('get', '/currencies', widgetKey.key).expect(200);

        const listed = await admin('widget-key:list', h.partner.organizationId);
        expect(listed.stdout).toContain(widgetKey.key);
        const revoked = await admin('widget-key:revoke', widgetKey.key);
        expect(JSON.parse(revoked.stdout).widgetKey.revokedAt).toEqual(expect.any(String));
        await waitUntil(
          'the CLI revocation to reach the api',
          async () => (await widget('get', '/currencies', widgetKey.key)).status === 401,
          5_000,
        );
        const bad = await admin(
          'widget-key:create',
          h.partner.organizationId,
          '--name',
          'x',
          '--test',
        );
        expect(bad.code).toBe(1);
        expect(bad.stderr).toContain('allowedOrigins');
        const rows: { actor: string }[] = await h.db.query(
          `SELECT actor FROM audit_log WHERE target_id = $1 ORDER BY id`,
          [widgetKey.key],
        );
        expect(rows.map((r) => r.actor)).toEqual(['cli', 'cli']);
      },
      4 * CLI_RUN_MS,
    );
  });

  describe('across two api processes', () => {
    let apis: ServiceProcess[] = [];

    beforeAll(async () => {
      const env = testApiEnv({ PROVIDER_URL: h.sandbox.url, TEST_PROVIDER_URL: h.sandbox.url });
      apis = await spawnServices('api', [env, env]);
    }, 120_000);

    afterAll(async () => {
      await Promise.all(apis.map((service) => service.stop()));
    });

    const remote = (i: number, key: string) =>
      request(apis[i].url)
        .get('/widget-api/v1/currencies')
        .set('X-Widget-Key', key)
        .set('Origin', SHOP);

    it('shares the per-key limit', async () => {
      const key = await newKey(h.partner.organizationId, 'test');
      let statuses: number[] = [];
      for (let wave = 0; wave < 5 && !statuses.includes(429); wave += 1) {
        // 2 × 20 requests: each process alone stays under 30 a second; together they do not.
        statuses = (
          await Promise.all(Array.from({ length: 40 }, (_, i) => remote(i % 2, key.key)))
        ).map((res) => res.status);
      }

      expect(statuses).toContain(429);
    });

    it('shares the creation limit', async () => {
      const key = await newKey(h.partner.organizationId, 'test');
      const statuses: number[] = [];
      for (let i = 0; i < 12; i += 1) {
        const res = await request(apis[i % 2].url)
          .post('/widget-api/v1/swaps')
          .set('X-Widget-Key', key.key)
          .set('Origin', SHOP)
          .send({});
        statuses.push(res.status);
      }

      expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    });

    it('stops a revoked key on every process within 5 s', async () => {
      const key = await newKey(h.partner.organizationId, 'test');
      await remote(0, key.key).expect(200);
      await remote(1, key.key).expect(200);

      await request(apis[0].url)
        .post(`/admin/widget_keys/${key.key}/revoke`)
        .set('Authorization', ADMIN)
        .expect(200);
      const elapsed = await waitUntil(
        'both processes to refuse the revoked key',
        async () =>
          (await remote(1, key.key)).status === 401 && (await remote(0, key.key)).status === 401,
        5_000,
        50,
      );

      expect(elapsed).toBeLessThan(5_000);
      const page = await request(apis[1].url).get(`/widget?key=${key.key}`);
      expect(page.status).toBe(404);
    });

    // Last: it spends the per-IP budget of the address both processes see.
    it('counts preflights in the per-IP limit both processes share, and meters the refusals', async () => {
      const preflight = (i: number) =>
        request(apis[i].url)
          .options('/widget-api/v1/swaps')
          .set('Origin', SHOP)
          .set('Access-Control-Request-Method', 'POST');
      const refusals = async (i: number): Promise<number> => {
        const text = (await request(apis[i].url).get('/metrics').set('Authorization', ADMIN)).text;
        const line = /^api_widget_preflights_total\{outcome="rate_limited"\} (\d+)$/m.exec(text);
        return Number(line?.[1] ?? 0);
      };
      const answers: request.Response[] = [];
      for (let wave = 0; wave < 5 && !answers.some((res) => res.status === 429); wave += 1) {
        // 2 × 80 preflights: each process alone stays under 120 a second; together they do not.
        answers.push(
          ...(await Promise.all(Array.from({ length: 160 }, (_, i) => preflight(i % 2)))),
        );
      }

      const refused = answers.filter((res) => res.status === 429);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused[0].body.error.code).toBe('rate_limited');
      expect(Number(refused[0].headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(answers.filter((res) => res.status === 204).length).toBeGreaterThan(0);
      expect((await refusals(0)) + (await refusals(1))).toBe(refused.length);
    }, 60_000);
  });
});
