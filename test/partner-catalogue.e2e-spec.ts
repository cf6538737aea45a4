import { Decimal } from 'decimal.js';
import request from 'supertest';
import { TestPartner } from './factories/partners.js';
import { PROVIDER_NAMES } from '#app/domain';
import { TEST_ADMIN_TOKEN } from './support/api.js';
import { startHarness, type Harness } from './support/harness.js';
import { OpenApiValidator } from './support/openapi.js';
import { waitUntil } from './support/wait.js';

const ETH_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('Partner API: authentication, catalogue, addresses and quotes', () => {
  let h: Harness;
  let openapi: OpenApiValidator;
  let partner: TestPartner;

  beforeAll(async () => {
    h = await startHarness({ api: { FIXED_RATE_TTL_SECONDS: '45' } });
    openapi = await OpenApiValidator.load(h.api.url);
  });

  // A fresh credential per test: the suite's requests must never add up to the 30/s credential limit.
  beforeEach(async () => {
    partner = await h.newPartner({ feePercent: '2' });
  });

  afterAll(async () => {
    await h?.close();
  });

  afterEach(async () => {
    await h.sandbox.control.clearFaults();
  });

  function get(path: string, auth = partner.authorization) {
    return request(h.api.url).get(path).set('Authorization', auth);
  }

  function post(path: string, body: object, auth = partner.authorization) {
    return request(h.api.url).post(path).set('Authorization', auth).send(body);
  }

  it('serves an OpenAPI 3.1 document, version 1.0.0, and a docs page', async () => {
    const res = await request(h.api.url).get('/v1/openapi.json').expect(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.info.version).toBe('1.0.0');
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/v1/currencies',
        '/v1/pairs',
        '/v1/quotes',
        '/v1/public/quote',
        '/v1/swaps',
      ]),
    );
    const docs = await request(h.api.url).get('/docs').expect(200);
    expect(docs.text).toContain('/v1/quotes');
  });

  describe('authentication', () => {
    it.each([
      ['no header', undefined],
      ['not a bearer', 'Basic abc'],
      ['no colon', `Bearer pk_live_${'a'.repeat(32)}`],
      ['malformed key', `Bearer pk_test_${'a'.repeat(32)}:sk_live_${'b'.repeat(48)}`],
      ['unknown key', `Bearer pk_live_${'a'.repeat(32)}:sk_live_${'b'.repeat(48)}`],
    ])('answers 401 unauthenticated for %s', async (_case, auth) => {
      const req = request(h.api.url).get('/v1/currencies');
      const res = await (auth ? req.set('Authorization', auth) : req).expect(401);
      expect(res.body.error).toMatchObject({
        type: 'authentication_error',
        code: 'unauthenticated',
      });
      openapi.check('GET', '/v1/currencies', 401, res.body);
    });

    it('answers a wrong secret exactly like an unknown key', async () => {
      const wrong = await get(
        '/v1/currencies',
        `Bearer ${partner.publicKey}:sk_live_${'c'.repeat(48)}`,
      ).expect(401);
      const unknown = await get(
        '/v1/currencies',
        `Bearer pk_live_${'d'.repeat(32)}:sk_live_${'c'.repeat(48)}`,
      ).expect(401);
      expect(wrong.body).toEqual(unknown.body);
    });

    it.each([
      ['pending_review', 'org_pending_review'],
      ['suspended', 'org_suspended'],
      ['rejected', 'org_rejected'],
    ] as const)('answers 403 %s with %s', async (status, code) => {
      const other = await h.newPartner({ status });
      const res = await get('/v1/currencies', other.authorization).expect(403);
      expect(res.body.error).toMatchObject({ type: 'authorization_error', code });
    });

    it('answers 503 provider_credential_pending on quotes while the catalogue works', async () => {
      const pending = await h.newPartner({ providerActivated: false });
      const quote = await post(
        '/v1/quotes',
        { from: 'btc', to: 'eth', amountFrom: '0.1' },
        pending.authorization,
      ).expect(503);
      expect(quote.body.error).toMatchObject({
        type: 'upstream_error',
        code: 'provider_credential_pending',
      });
      await get('/v1/currencies', pending.authorization).expect(200);
      await get('/v1/pairs?from=btc&to=eth', pending.authorization).expect(200);
      await post(
        '/v1/addresses/validate',
        { currency: 'eth', address: ETH_ADDRESS },
        pending.authorization,
      ).expect(200);
    });
  });

  describe('GET /v1/currencies', () => {
    it('lists currencies without memo currencies, every field typed', async () => {
      const res = await get('/v1/currencies').expect(200);
      openapi.check('GET', '/v1/currencies', 200, res.body);
      const tickers = res.body.currencies.map((c: { ticker: string }) => c.ticker);
      expect(tickers).toEqual(expect.arrayContaining(['btc', 'eth', 'usdtrx']));
      expect(tickers).not.toContain('xrp');
      expect(tickers).not.toContain('xlm');
      expect(res.body.currencies.length).toBeGreaterThanOrEqual(12);
      for (const currency of res.body.currencies) {
        expect(Object.keys(currency).sort()).toEqual([
          'blockchain',
          'blockchainPrecision',
          'enabled',
          'enabledFrom',
          'enabledTo',
          'fullName',
          'image',
          'payinConfirmations',
          'ticker',
        ]);
      }
    });

    it('lists only tickers with lite=true', async () => {
      const res = await get('/v1/currencies?lite=true').expect(200);
      openapi.check('GET', '/v1/currencies', 200, res.body);
      expect(res.body.currencies).toContain('btc');
      expect(typeof res.body.currencies[0]).toBe('string');
    });

    it('refuses a non-boolean lite with param', async () => {
      const res = await get('/v1/currencies?lite=maybe').expect(400);
      expect(res.body.error).toMatchObject({ type: 'validation_error', param: 'lite' });
    });
  });

  describe('GET /v1/pairs', () => {
    it('answers the pair bounds with fixed inside float', async () => {
      const res = await get('/v1/pairs?from=btc&to=eth').expect(200);
      openapi.check('GET', '/v1/pairs', 200, res.body);
      const { pair } = res.body;
      expect(pair).toMatchObject({ from: 'btc', to: 'eth' });
      expect(new Decimal(pair.minAmountFloat).lte(pair.minAmountFixed)).toBe(true);
      expect(new Decimal(pair.maxAmountFixed).lte(pair.maxAmountFloat)).toBe(true);
    });

    it('normalizes aliases to canonical tickers', async () => {
      const res = await get('/v1/pairs?from=BTC&to=USDT-TRC20').expect(200);
      expect(res.body.pair).toMatchObject({ from: 'btc', to: 'usdtrx' });
    });

    it.each([
      ['unknown ticker', 'from=zzz&to=eth'],
      ['memo currency', 'from=btc&to=xrp'],
      ['destination disabled', 'from=btc&to=dash'],
    ])('answers pair_unsupported for a %s', async (_case, query) => {
      const res = await get(`/v1/pairs?${query}`).expect(400);
      expect(res.body.error).toMatchObject({
        type: 'validation_error',
        code: 'pair_unsupported',
        param: 'pair',
      });
      openapi.check('GET', '/v1/pairs', 400, res.body);
    });

    it('names a missing ticker in param', async () => {
      const res = await get('/v1/pairs?from=btc').expect(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'to' });
    });
  });

  describe('POST /v1/addresses/validate', () => {
    it('accepts a valid address without a message', async () => {
      const res = await post('/v1/addresses/validate', {
        currency: 'eth',
        address: ETH_ADDRESS,
      }).expect(200);
      openapi.check('POST', '/v1/addresses/validate', 200, res.body);
      expect(res.body).toEqual({ valid: true });
    });

    it('rejects an invalid address with a reason', async () => {
      const res = await post('/v1/addresses/validate', {
        currency: 'btc',
        address: 'not-an-address-at-all',
      }).expect(200);
      expect(res.body.valid).toBe(false);
      expect(typeof res.body.message).toBe('string');
    });

    it('names a missing field in param', async () => {
      const res = await post('/v1/addresses/validate', { currency: 'btc' }).expect(400);
      expect(res.body.error).toMatchObject({ type: 'validation_error', param: 'address' });
    });
  });

  describe('POST /v1/quotes', () => {
    it('quotes float with the fee present and amountUserReceives = amountTo − networkFee', async () => {
      const res = await post('/v1/quotes', { from: 'btc', to: 'eth', amountFrom: '0.1' }).expect(
        200,
      );
      openapi.check('POST', '/v1/quotes', 200, res.body);
      const { quote } = res.body;
      expect(quote).toMatchObject({
        from: 'btc',
        to: 'eth',
        amountFrom: '0.1',
        mode: 'float',
        rateId: null,
        expiresAt: null,
      });
      expect(typeof quote.fee).toBe('string');
      expect(new Decimal(quote.amountTo).minus(quote.networkFee).eq(quote.amountUserReceives)).toBe(
        true,
      );
    });

    it("takes the organization's fee off amountTo", async () => {
      const zeroFee = await h.newPartner({ feePercent: '0' });
      const body = { from: 'ltc', to: 'btc', amountFrom: '3' };
      const [mine, theirs] = await Promise.all([
        post('/v1/quotes', body).expect(200),
        post('/v1/quotes', body, zeroFee.authorization).expect(200),
      ]);
      const ratio = new Decimal(mine.body.quote.amountTo).div(theirs.body.quote.amountTo);
      expect(ratio.toNumber()).toBeCloseTo(0.98, 3);
    });

    it('quotes fixed with a rateId, no fee and expiresAt about now + TTL', async () => {
      const res = await post('/v1/quotes', {
        from: 'btc',
        to: 'eth',
        amountFrom: '0.1',
        mode: 'fixed',
      }).expect(200);
      openapi.check('POST', '/v1/quotes', 200, res.body);
      const { quote } = res.body;
      expect(quote.mode).toBe('fixed');
      expect(quote.rateId).toEqual(expect.any(String));
      expect(quote.fee ?? null).toBeNull();
      const ttl = (Date.parse(quote.expiresAt) - Date.now()) / 1000;
      expect(ttl).toBeGreaterThan(40);
      expect(ttl).toBeLessThanOrEqual(45);
      expect(new Decimal(quote.amountTo).minus(quote.networkFee).eq(quote.amountUserReceives)).toBe(
        true,
      );
    });

    it('answers amount_below_min with the minimum in the message', async () => {
      const { body: pairs } = await get('/v1/pairs?from=btc&to=eth').expect(200);
      const res = await post('/v1/quotes', {
        from: 'btc',
        to: 'eth',
        amountFrom: '0.00000001',
      }).expect(400);
      expect(res.body.error).toMatchObject({ code: 'amount_below_min', param: 'amountFrom' });
      expect(res.body.error.message).toContain(pairs.pair.minAmountFloat);
      openapi.check('POST', '/v1/quotes', 400, res.body);
    });

    it('answers amount_above_max', async () => {
      const res = await post('/v1/quotes', { from: 'btc', to: 'eth', amountFrom: '100000' }).expect(
        400,
      );
      expect(res.body.error).toMatchObject({ code: 'amount_above_max', param: 'amountFrom' });
    });

    it('answers pair_unsupported for fixed on a pair without fixed rates', async () => {
      const res = await post('/v1/quotes', {
        from: 'dash',
        to: 'btc',
        amountFrom: '1',
        mode: 'fixed',
      }).expect(400);
      expect(res.body.error).toMatchObject({ code: 'pair_unsupported', param: 'pair' });
    });

    it.each([
      ['a JSON number amount', { from: 'btc', to: 'eth', amountFrom: 0.1 }, 'amountFrom'],
      ['an unknown field', { from: 'btc', to: 'eth', amountFrom: '0.1', speed: 'fast' }, 'speed'],
      ['a bad mode', { from: 'btc', to: 'eth', amountFrom: '0.1', mode: 'turbo' }, 'mode'],
      ['a negative amount', { from: 'btc', to: 'eth', amountFrom: '-1' }, 'amountFrom'],
    ])('refuses %s naming the field', async (_case, body, param) => {
      const res = await post('/v1/quotes', body).expect(400);
      expect(res.body.error).toMatchObject({ type: 'validation_error', param });
    });

    it('says a missing field is missing, not too long', async () => {
      const res = await post('/v1/quotes', { from: 'btc', to: 'eth' }).expect(400);
      expect(res.body.error).toMatchObject({ param: 'amountFrom' });
      expect(res.body.error.message).toMatch(/required/);
    });

    it('answers too many decimals with invalid_request and upstream_code -32602', async () => {
      const res = await post('/v1/quotes', {
        from: 'btc',
        to: 'eth',
        amountFrom: '0.123456789',
      }).expect(400);
      expect(res.body.error).toMatchObject({
        code: 'invalid_request',
        upstream_code: -32602,
        param: 'amountFrom',
      });
    });

    it.each([
      ['non_json', 502, 'upstream_bad_response'],
      ['empty_result', 502, 'upstream_empty_quote'],
      ['timeout', 503, 'upstream_error'],
      ['http_500', 503, 'upstream_error'],
    ] as const)('maps a provider %s fault to %i %s', async (mode, status, code) => {
      await h.sandbox.control.setFault({ method: 'getExchangeAmount', mode, count: 1 });
      const res = await post('/v1/quotes', { from: 'btc', to: 'eth', amountFrom: '0.1' }).expect(
        status,
      );
      expect(res.body.error).toMatchObject({ type: 'upstream_error', code });
      openapi.check('POST', '/v1/quotes', status, res.body);
    });
  });

  describe('GET /v1/public/quote', () => {
    it('prices without authentication, with cache and CORS headers', async () => {
      const res = await request(h.api.url).get('/v1/public/quote?from=btc&to=eth').expect(200);
      openapi.check('GET', '/v1/public/quote', 200, res.body);
      expect(res.headers['cache-control']).toBe('public, max-age=10');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      const { quote } = res.body;
      expect(quote).toMatchObject({ from: 'btc', to: 'eth', amountFrom: '1', rateType: 'float' });
      expect(quote.feeNote).toMatch(/fee/);
      expect(new Decimal(quote.amountTo).minus(quote.networkFee).eq(quote.amountUserReceives)).toBe(
        true,
      );
    });

    it('normalizes aliases', async () => {
      const res = await request(h.api.url)
        .get('/v1/public/quote?from=Bitcoin&to=usdt_trc20&amount=0.5')
        .expect(200);
      expect(res.body.quote).toMatchObject({ from: 'btc', to: 'usdtrx', amountFrom: '0.5' });
    });

    it('serves repeated prices from the per-pair cache, not the provider', async () => {
      await request(h.api.url).get('/v1/public/quote?from=ltc&to=trx').expect(200);
      const before = (await h.sandbox.control.stats()).calls.getExchangeAmount ?? 0;
      for (const amount of ['1', '2', '3', '4', '5']) {
        await request(h.api.url)
          .get(`/v1/public/quote?from=ltc&to=trx&amount=${amount}`)
          .expect(200);
      }
      expect((await h.sandbox.control.stats()).calls.getExchangeAmount ?? 0).toBe(before);
    });

    it("prices an amount anew once its 10 s reference expires, at the provider's new rate", async () => {
      type Price = { amountTo: string; networkFee: string; amountUserReceives: string };
      const ask = async (): Promise<Price> =>
        (await request(h.api.url).get('/v1/public/quote?from=sol&to=ada&amount=3').expect(200)).body
          .quote as Price;
      const first = await ask();
      try {
        for (const provider of PROVIDER_NAMES) {
          await h.sandbox.control.setSpread(provider, 'sol', 'ada', 3000);
        }
        expect(await ask()).toEqual(first);
        let later = first;
        await waitUntil(
          'a price from a new reference',
          async () => {
            later = await ask();
            return later.amountTo !== first.amountTo;
          },
          20_000,
          1_000,
        );
        expect(new Decimal(later.amountTo).lt(new Decimal(first.amountTo).mul('0.8'))).toBe(true);
        expect(new Decimal(later.amountTo).minus(later.networkFee).toFixed()).toBe(
          later.amountUserReceives,
        );
      } finally {
        await h.sandbox.control.restoreSpreads();
      }
    }, 30_000);

    it.each([
      ['a missing ticker', 'from=btc', 'to'],
      ['a non-positive amount', 'from=btc&to=eth&amount=0', 'amount'],
      ['from equal to to', 'from=btc&to=BTC', 'to'],
      ['an unknown ticker', 'from=nope&to=eth', 'pair'],
    ])('answers 400 for %s', async (_case, query, param) => {
      const res = await request(h.api.url).get(`/v1/public/quote?${query}`).expect(400);
      expect(res.body.error).toMatchObject({ type: 'validation_error', param });
      expect(res.headers['access-control-allow-origin']).toBe('*');
    });

    it('answers a provider failure with 503, as documented for this endpoint', async () => {
      await h.sandbox.control.setFault({ method: 'getExchangeAmount', mode: 'non_json', count: 1 });
      const res = await request(h.api.url).get('/v1/public/quote?from=doge&to=ltc').expect(503);
      expect(res.body.error).toMatchObject({ type: 'upstream_error', code: 'upstream_error' });
    });

    it('sends CORS headers on this route only', async () => {
      const res = await get('/v1/currencies').expect(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });
  });
  describe('GET /metrics', () => {
    it('needs the admin token', async () => {
      await request(h.api.url).get('/metrics').expect(401);
      await get('/metrics').expect(401);
    });

    it('counts requests by route template and upstream calls by method and outcome', async () => {
      await get('/v1/pairs?from=btc&to=ltc').expect(200);
      const res = await request(h.api.url)
        .get('/metrics')
        .set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
        .expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.text).toMatch(
        /api_http_requests_total\{method="GET",route="\/v1\/pairs",status="200"\} \d+/,
      );
      expect(res.text).toMatch(/api_http_requests_total\{[^}]*status="401"\}/);
      expect(res.text).toMatch(
        /api_upstream_calls_total\{provider="changelly",method="getExchangeAmount",outcome="ok"\} \d+/,
      );
      expect(res.text).toContain('api_http_request_duration_seconds_bucket');
      // What the alerts on an unreachable database or Redis watch, as of this scrape.
      expect(res.text).toMatch(/^dependency_up\{dependency="postgres"\} 1$/m);
      expect(res.text).toMatch(/^dependency_up\{dependency="redis"\} 1$/m);
    });

    it('shows the process and event-loop metrics beside its own', async () => {
      const res = await request(h.api.url)
        .get('/metrics')
        .set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
        .expect(200);

      expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(res.text).toMatch(/^process_cpu_seconds_total [\d.e+-]+$/m);
      expect(res.text).toMatch(/^nodejs_eventloop_lag_seconds [\d.e+-]+$/m);
    });
  });
});
