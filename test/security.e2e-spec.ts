import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import { generateAddress } from '#app/chains';
import { createPartnerOverHttp } from './factories/partners.js';
import { testRedisPrefix } from './support/database.js';
import { startHarness, type Harness } from './support/harness.js';
import { providerKeyPair } from './support/keys.js';
import { altered } from './support/tamper.js';

/** Everything the api logs, as text: the test greps it for secrets. */
class CapturedLog extends Writable {
  private readonly chunks: string[] = [];

  override _write(chunk: Buffer | string, _encoding: string, done: () => void): void {
    this.chunks.push(chunk.toString());
    done();
  }

  get text(): string {
    return this.chunks.join('');
  }
}

const ADMIN_TOKEN = `security-admin-${randomBytes(12).toString('hex')}`;
const CORS_HEADER = 'access-control-allow-origin';

describe('Security', () => {
  let h: Harness;
  let url: string;
  let log: CapturedLog;
  let organizationId: string;
  let publicKey: string;
  let secret: string;

  const admin = {
    get: (path: string) => request(url).get(path).set('Authorization', `Bearer ${ADMIN_TOKEN}`),
    post: (path: string) => request(url).post(path).set('Authorization', `Bearer ${ADMIN_TOKEN}`),
  };
  const bearer = (): string => `Bearer ${publicKey}:${secret}`;

  beforeAll(async () => {
    log = new CapturedLog();
    h = await startHarness({
      // A plain pino without redaction: secrets must never be handed to the logger at all.
      logger: pino({ level: 'debug' }, log),
      api: {
        ADMIN_TOKEN,
        REDIS_KEY_PREFIX: `${testRedisPrefix()}sec-${randomBytes(3).toString('hex')}:`,
      },
    });
    url = h.api.url;
    // Over the admin API, so its requests are in the log too.
    ({ organizationId, publicKey, secret } = await createPartnerOverHttp(
      url,
      ADMIN_TOKEN,
      'Secure Wallet',
    ));
  });

  afterAll(async () => {
    await h?.close();
  });

  describe('logs', () => {
    it('never contain a partner secret, a full bearer, the admin token or the provider key', async () => {
      const revealed = await admin.post(`/admin/credentials/${publicKey}/reveal`).expect(200);
      expect((revealed.body as { credential: { secret: string } }).credential.secret).toBe(secret);
      await admin.get(`/admin/organizations/${organizationId}/credentials`).expect(200);
      await admin.get('/admin/audit').expect(200);
      await request(url)
        .get('/admin/organizations')
        .set('Authorization', `Bearer ${ADMIN_TOKEN}x`)
        .expect(401);

      await request(url).get('/v1/currencies').set('Authorization', bearer()).expect(200);
      const wrongSecret = `Bearer ${publicKey}:sk_live_${'0'.repeat(48)}`;
      await request(url).get('/v1/currencies').set('Authorization', wrongSecret).expect(401);
      const unknownKey = `Bearer pk_live_${'0'.repeat(32)}:${secret}`;
      await request(url).get('/v1/currencies').set('Authorization', unknownKey).expect(401);
      await request(url).get('/v1/currencies').set('Authorization', secret).expect(401);

      await request(url)
        .post('/v1/quotes')
        .set('Authorization', bearer())
        .send({ from: 'btc', to: 'eth', amountFrom: '0.1' })
        .expect(200);
      const swap = await request(url)
        .post('/v1/swaps')
        .set('Authorization', bearer())
        .set('Idempotency-Key', randomUUID())
        .send({
          from: 'btc',
          to: 'eth',
          amountFrom: '0.1',
          address: generateAddress('ethereum', (n) => randomBytes(n)),
        })
        .expect(201);
      const id = (swap.body as { swap: { id: string } }).swap.id;
      await request(url).get(`/v1/swaps/${id}`).set('Authorization', bearer()).expect(200);
      // A secret sent where it does not belong (a body field, a query) is not echoed to logs either.
      await request(url)
        .post('/v1/quotes')
        .set('Authorization', bearer())
        .send({ from: 'btc', to: 'eth', amountFrom: '0.1', secret })
        .expect(400);
      await admin.post(`/admin/credentials/${publicKey}/revoke`).expect(200);
      await request(url).get('/v1/currencies').set('Authorization', bearer()).expect(401);

      const text = log.text;
      // The capture works: request lines and the upstream calls were logged.
      expect(text).toContain('/v1/swaps');
      expect(text).toContain('createTransaction');
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice('sk_live_'.length));
      expect(text).not.toContain(`${publicKey}:${secret}`);
      expect(text).not.toContain(ADMIN_TOKEN);
      const pemBody = providerKeyPair()
        .privateKeyPem.split('\n')
        .filter((line) => line.length > 0 && !line.startsWith('-----'));
      expect(pemBody.length).toBeGreaterThan(10);
      for (const line of pemBody) {
        expect(text).not.toContain(line);
      }
      expect(text).not.toContain('PRIVATE KEY');
    });
  });

  describe('CORS', () => {
    it('is open on GET /v1/public/quote and its preflight', async () => {
      const quote = await request(url)
        .get('/v1/public/quote?from=btc&to=eth')
        .set('Origin', 'https://wallet.example')
        .expect(200);
      expect(quote.headers[CORS_HEADER]).toBe('*');
      const preflight = await request(url)
        .options('/v1/public/quote')
        .set('Origin', 'https://wallet.example')
        .set('Access-Control-Request-Method', 'GET')
        .expect(204);
      expect(preflight.headers[CORS_HEADER]).toBe('*');
    });

    it('sends no CORS header anywhere else, preflights included', async () => {
      const origin = 'https://evil.example';
      const answers = [
        await request(url).get('/health').set('Origin', origin),
        await request(url).get('/ready').set('Origin', origin),
        await request(url).get('/v1/openapi.json').set('Origin', origin),
        await request(url).get('/v1/currencies').set('Origin', origin),
        await request(url).get('/v1/swaps').set('Origin', origin).set('Authorization', bearer()),
        await request(url).post('/v1/quotes').set('Origin', origin).send({}),
        await request(url).get('/admin/organizations').set('Origin', origin),
        await request(url)
          .options('/v1/swaps')
          .set('Origin', origin)
          .set('Access-Control-Request-Method', 'POST')
          .set('Access-Control-Request-Headers', 'authorization, content-type, idempotency-key'),
        await request(url)
          .options('/v1/swaps/0123456789abcdef')
          .set('Origin', origin)
          .set('Access-Control-Request-Method', 'GET'),
        await request(url)
          .options('/admin/organizations')
          .set('Origin', origin)
          .set('Access-Control-Request-Method', 'POST'),
      ];
      for (const answer of answers) {
        const cors = Object.keys(answer.headers).filter((h) => h.startsWith('access-control-'));
        expect({ url: answer.request.url, cors }).toEqual({ url: answer.request.url, cors: [] });
      }
      const preflight = answers[7];
      expect(preflight.status).toBeGreaterThanOrEqual(400);
    });
  });

  describe('admin token', () => {
    it('answers every wrong token, whatever its length, with the same 401', async () => {
      const wrong = [
        undefined,
        '',
        'Bearer ',
        'Bearer x',
        `Bearer ${ADMIN_TOKEN.slice(0, -1)}`,
        `Bearer ${altered(ADMIN_TOKEN)}`,
        `Bearer ${ADMIN_TOKEN}x`,
        `Bearer ${ADMIN_TOKEN.slice(0, 8)}`,
        `Bearer ${'z'.repeat(4000)}`,
        `Bearer ${ADMIN_TOKEN} ${ADMIN_TOKEN}`,
        `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')}`,
        ADMIN_TOKEN,
        bearer(),
      ];
      const answers = await Promise.all(
        wrong.map((authorization) => {
          const req = request(url).get('/admin/organizations');
          return authorization === undefined ? req : req.set('Authorization', authorization);
        }),
      );
      const [first] = answers;
      expect(first.status).toBe(401);
      expect(first.body).toEqual({
        error: {
          type: 'authentication_error',
          code: 'unauthenticated',
          message: expect.any(String) as unknown,
          param: null,
          upstream_code: null,
          retry_after_ms: null,
        },
      });
      for (const answer of answers) {
        expect(answer.status).toBe(401);
        expect(answer.body).toEqual(first.body);
        expect(answer.headers['www-authenticate']).toBe(first.headers['www-authenticate']);
      }
      await admin.get('/admin/organizations').expect(200);
    });
  });

  describe('partner authentication', () => {
    it('answers an unknown key, a wrong secret, a revoked or malformed credential alike', async () => {
      const other = await admin
        .post('/admin/organizations')
        .send({ name: 'Other Wallet', feePercent: '1', status: 'active' })
        .expect(201);
      const otherId = (other.body as { organization: { id: string } }).organization.id;
      const issued = await admin.post(`/admin/organizations/${otherId}/credentials`).expect(201);
      const live = (issued.body as { credential: { publicKey: string; secret: string } })
        .credential;
      const good = `Bearer ${live.publicKey}:${live.secret}`;
      await request(url).get('/v1/currencies').set('Authorization', good).expect(200);

      const attempts = [
        `Bearer pk_live_${'0'.repeat(32)}:${live.secret}`,
        `Bearer ${live.publicKey}:sk_live_${'0'.repeat(48)}`,
        `Bearer ${live.publicKey}:${live.secret.slice(0, -1)}`,
        `Bearer ${publicKey}:${secret}`,
        `Bearer ${live.publicKey}`,
        `Bearer ${live.publicKey}:${live.secret}:x`,
        `Basic ${live.publicKey}:${live.secret}`,
        `Bearer ${ADMIN_TOKEN}`,
      ];
      const answers = [
        await request(url).get('/v1/currencies'),
        ...(await Promise.all(
          attempts.map((a) => request(url).get('/v1/currencies').set('Authorization', a)),
        )),
      ];
      const [first] = answers;
      expect(first.body).toMatchObject({
        error: { type: 'authentication_error', code: 'unauthenticated' },
      });
      for (const answer of answers) {
        expect(answer.status).toBe(401);
        expect(answer.body).toEqual(first.body);
      }
    });
  });
});
