import { randomBytes, randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import request from 'supertest';
import { generateAddress } from '#app/chains';
import { issueCredential, type TestPartner } from '../factories/partners.js';
import { startTestApi, TEST_ADMIN_TOKEN, type TestApi } from '../support/api.js';
import { startHarness, type Harness } from '../support/harness.js';

const ADMIN = `Bearer ${TEST_ADMIN_TOKEN}`;
/** Values Postgres refuses (NUL in text, a lone surrogate in jsonb) or silently rewrites. */
const UNSTORABLE = [
  ['a NUL', 'ref\u0000'],
  ['a lone high surrogate', 'ref\uD800'],
  ['a lone low surrogate', '\uDC00ref'],
  ['another control character', 'ref\u001B[31m'],
] as const;

/**
 * Each defect an outside security review found, as a partner or an operator meets it.
 * The fuzz suite beside this one sweeps every route; these pin the exact cases down.
 */
describe('Hardening', () => {
  let h: Harness;
  let partner: TestPartner;
  let testNumber = 0;
  let clientIp = '';

  // A credential and an address of its own per test (behind one trusted hop): however fast the
  // machine, no test shares a per-credential or per-IP budget with another.
  beforeEach(async () => {
    testNumber += 1;
    clientIp = `10.15.${testNumber >> 8}.${testNumber & 255}`;
    partner = await issueCredential(h.api.app, h.partner);
  });

  const call = (method: 'get' | 'post' | 'patch', path: string) =>
    request(h.api.url)[method](path).set('X-Forwarded-For', clientIp);
  const asPartner = (method: 'get' | 'post', path: string, who = partner) =>
    call(method, path).set('Authorization', who.authorization);
  const asAdmin = (method: 'get' | 'post' | 'patch', path: string) =>
    call(method, path).set('Authorization', ADMIN);
  const ethAddress = () => generateAddress('ethereum', (n) => randomBytes(n));
  const upstreamCalls = async () => (await h.sandbox.control.stats()).totalCalls;
  const count = async (table: string) =>
    (await h.db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;

  beforeAll(async () => {
    h = await startHarness({ api: { TRUST_PROXY_HOPS: '1' } });
  });

  afterAll(async () => {
    await h?.close();
  });

  describe('5b: text Postgres cannot store is refused with 400 before anything happens', () => {
    it.each(UNSTORABLE)(
      'POST /v1/swaps with %s in partnerReferenceId: 400, no provider call, no orphan on retry',
      async (_name, value) => {
        const key = randomUUID();
        const before = await upstreamCalls();
        const swapsBefore = await count('swaps');
        const body = { from: 'btc', to: 'eth', amountFrom: '0.1', address: ethAddress() };
        for (let attempt = 0; attempt < 2; attempt += 1) {
          const res = await asPartner('post', '/v1/swaps')
            .set('Idempotency-Key', key)
            .send({ ...body, partnerReferenceId: value })
            .expect(400);
          expect(res.body.error).toMatchObject({
            type: 'validation_error',
            code: 'invalid_request',
            param: 'partnerReferenceId',
          });
        }
        expect(await upstreamCalls()).toBe(before);
        expect(await count('swaps')).toBe(swapsBefore);
        // The key was never taken: the corrected request goes through with it.
        await asPartner('post', '/v1/swaps')
          .set('Idempotency-Key', key)
          .send({ ...body, partnerReferenceId: 'order-42' })
          .expect(201);
      },
    );

    it.each(UNSTORABLE)('the same rule holds in every other partner field (%s)', async (_n, v) => {
      const address = ethAddress();
      const attempts = [
        asPartner('post', '/v1/swaps')
          .set('Idempotency-Key', randomUUID())
          .send({ from: 'btc', to: 'eth', amountFrom: '0.1', address: `${address}${v}` }),
        asPartner('post', '/v1/quotes').send({ from: `btc${v}`, to: 'eth', amountFrom: '0.1' }),
        asPartner('post', '/v1/addresses/validate').send({ currency: 'eth', address: v }),
      ];
      const params = ['address', 'from', 'address'];
      const answers = await Promise.all(attempts);
      answers.forEach((res, i) => {
        expect({ status: res.status, param: res.body.error?.param }).toEqual({
          status: 400,
          param: params[i],
        });
      });
    });

    it('GET /v1/swaps?partnerReferenceId=%00 is 400, not a database error', async () => {
      const res = await asPartner('get', '/v1/swaps?partnerReferenceId=ref%00').expect(400);
      expect(res.body.error).toMatchObject({
        code: 'invalid_request',
        param: 'partnerReferenceId',
      });
    });

    it.each(UNSTORABLE)(
      'an organization name with %s is 400 (the audit entry stays JSON)',
      async (_n, v) => {
        const organizations = await count('organizations');
        const res = await asAdmin('post', '/admin/organizations')
          .send({ name: `Acme ${v}`, feePercent: '1' })
          .expect(400);
        expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'name' });
        expect(await count('organizations')).toBe(organizations);
      },
    );

    it.each(UNSTORABLE)('a payout address with %s is 400', async (_n, v) => {
      const res = await asAdmin('patch', `/admin/organizations/${partner.organizationId}`)
        .send({ payoutAddress: `T${v}` })
        .expect(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'payoutAddress' });
    });

    it.each(UNSTORABLE)('a legacy import field with %s is 400 naming it', async (_n, v) => {
      const legacy = {
        id: `swp_${randomBytes(6).toString('hex')}`,
        organizationId: partner.organizationId,
        status: 'finished',
        from: 'btc',
        to: 'eth',
        amountFrom: '0.5',
        payinAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
        payoutAddress: ethAddress(),
        createdAt: '2025-01-01T09:55:00.000Z',
      };
      for (const field of ['partnerReferenceId', 'payinHash', 'providerSwapId', 'from']) {
        const res = await asAdmin('post', '/admin/swaps/import')
          .send({ swaps: [{ ...legacy, [field]: v }] })
          .expect(400);
        expect(res.body.error).toMatchObject({ param: `swaps.0.${field}` });
      }
      const res = await asAdmin('post', '/admin/swaps/import').send({ swaps: [legacy] });
      expect(res.status).toBe(201);
    });
  });

  describe('5e: out-of-range and null inputs are 400 or "absent", never 500', () => {
    it.each(['1e20', '9007199254740992', '1e400', '-1', '1.5'])(
      'GET /v1/swaps?offset=%s is 400 naming offset',
      async (offset) => {
        const res = await asPartner('get', `/v1/swaps?offset=${offset}`).expect(400);
        expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'offset' });
      },
    );

    it('the largest safe offset is simply past the end', async () => {
      const res = await asPartner('get', '/v1/swaps?offset=9007199254740991').expect(200);
      expect(res.body).toEqual({ swaps: [] });
    });

    it('a float swap with refundAddress and partnerReferenceId null creates the swap', async () => {
      const res = await asPartner('post', '/v1/swaps')
        .set('Idempotency-Key', randomUUID())
        .send({
          from: 'btc',
          to: 'eth',
          amountFrom: '0.1',
          address: ethAddress(),
          refundAddress: null,
          partnerReferenceId: null,
          rateId: null,
          mode: null,
        })
        .expect(201);
      expect(res.body.swap).toMatchObject({
        mode: 'float',
        refundAddress: null,
        partnerReferenceId: null,
      });
    });

    it('a fixed swap with refundAddress null is missing its refund address (400)', async () => {
      const res = await asPartner('post', '/v1/swaps')
        .set('Idempotency-Key', randomUUID())
        .send({
          from: 'btc',
          to: 'eth',
          amountFrom: '0.1',
          address: ethAddress(),
          mode: 'fixed',
          rateId: '0'.repeat(32),
          refundAddress: null,
        })
        .expect(400);
      expect(res.body.error).toMatchObject({ param: 'refundAddress' });
    });
  });

  describe('5f: caching, timeouts and the bearer scheme', () => {
    it('every authenticated /v1 and /admin answer, errors included, says no-store', async () => {
      const swap = await asPartner('post', '/v1/swaps')
        .set('Idempotency-Key', randomUUID())
        .send({ from: 'btc', to: 'eth', amountFrom: '0.1', address: ethAddress() });
      const issued = await asAdmin(
        'post',
        `/admin/organizations/${partner.organizationId}/credentials`,
      );
      const answers = [
        swap,
        issued,
        await asPartner('get', '/v1/currencies'),
        await asPartner('get', '/v1/swaps'),
        await asPartner('get', '/v1/swaps/0123456789abcdef'),
        await asPartner('post', '/v1/quotes').send({ from: 'btc' }),
        await call('get', '/v1/currencies'),
        await call('get', '/v1/swaps').set('Authorization', 'Bearer nope'),
        await asAdmin('get', '/admin/organizations'),
        await asAdmin('get', '/admin/audit'),
        await asAdmin('get', `/admin/organizations/${randomUUID()}`),
        await call('get', '/admin/organizations'),
        await asAdmin('post', '/admin/organizations').send({ name: '' }),
      ];
      expect(answers.map((a) => a.status)).toEqual([
        201, 201, 200, 200, 404, 400, 401, 401, 200, 200, 404, 401, 400,
      ]);
      for (const [index, answer] of answers.entries()) {
        const where = `answer ${index}: ${answer.status}`;
        expect({ where, cache: answer.headers['cache-control'] }).toEqual({
          where,
          cache: 'no-store',
        });
      }
    });

    it('public answers stay cacheable; their errors and the probes are never cached', async () => {
      const quote = await call('get', '/v1/public/quote?from=btc&to=eth').expect(200);
      expect(quote.headers['cache-control']).toBe('public, max-age=10');
      const bad = await call('get', '/v1/public/quote?from=btc').expect(400);
      expect(bad.headers['cache-control']).toBe('no-store');
      for (const path of ['/v1/openapi.json', '/docs']) {
        const res = await call('get', path).expect(200);
        expect(res.headers['cache-control']).toBe('public, max-age=300');
      }
      for (const path of ['/health', '/ready']) {
        const res = await call('get', path).expect(200);
        expect(res.headers['cache-control']).toBe('no-store');
      }
    });

    it('accepts the bearer scheme in any case on /v1 as on /admin', async () => {
      const credential = partner.authorization.slice('Bearer '.length);
      for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
        await call('get', '/v1/currencies')
          .set('Authorization', `${scheme} ${credential}`)
          .expect(200);
        await call('get', '/admin/organizations')
          .set('Authorization', `${scheme} ${TEST_ADMIN_TOKEN}`)
          .expect(200);
      }
    });
  });

  describe('5f: a request that trickles in', () => {
    let slow: TestApi;
    const sockets: Socket[] = [];

    beforeAll(async () => {
      slow = await startTestApi({ PROVIDER_URL: h.sandbox.url, HTTP_REQUEST_TIMEOUT_MS: '1000' });
    });

    afterAll(async () => {
      sockets.forEach((socket) => socket.destroy());
      await slow.close();
    });

    /** Writes `head`, then nothing more; resolves with what the server answers and when. */
    function trickle(head: string): Promise<{ text: string; elapsedMs: number }> {
      const { port } = new URL(slow.url);
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const chunks: Buffer[] = [];
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(head));
        sockets.push(socket);
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('error', reject);
        socket.on('close', () =>
          resolve({
            text: Buffer.concat(chunks).toString('utf8'),
            elapsedMs: Date.now() - started,
          }),
        );
      });
    }

    it.each([
      [
        'a body that stops short',
        `POST /v1/quotes HTTP/1.1\r\nHost: api\r\nAuthorization: Bearer x\r\n` +
          'Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{"from":',
      ],
      ['headers that never end', 'GET /v1/currencies HTTP/1.1\r\nHost: api\r\nX-Slow: '],
    ])(
      '%s is answered 408 in the envelope once the request timeout passes',
      async (_n, head) => {
        const { text, elapsedMs } = await trickle(head);
        expect(elapsedMs).toBeGreaterThanOrEqual(900);
        expect(elapsedMs).toBeLessThan(10_000);
        const [status, rest] = [text.slice(0, text.indexOf('\r\n')), text];
        expect(status).toBe('HTTP/1.1 408 Request Timeout');
        const body = JSON.parse(rest.slice(rest.indexOf('\r\n\r\n') + 4)) as {
          error: Record<string, unknown>;
        };
        expect(body.error).toMatchObject({ type: 'validation_error', code: 'request_timeout' });
      },
      15_000,
    );
  });
});
