import { randomBytes, randomUUID } from 'node:crypto';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import fc from 'fast-check';
import request from 'supertest';
import { generateAddress } from '#app/chains';
import { issueCredential, TestPartner } from './factories/partners.js';
import { TEST_ADMIN_TOKEN } from './support/api.js';
import { testRedisPrefix } from './support/database.js';
import { startHarness, type Harness } from './support/harness.js';

/** Fixed seed: a failure here reproduces exactly, and the run stays the same size every time. */
const SEED = 0x5eed_f022;
const ENVELOPE_KEYS = ['code', 'message', 'param', 'retry_after_ms', 'type', 'upstream_code'];
const ERROR_TYPES = [
  'validation_error',
  'authentication_error',
  'authorization_error',
  'not_found',
  'conflict',
  'unprocessable',
  'rate_limit_error',
  'upstream_error',
  'internal_error',
];
/** What a stack trace or a database error looks like; none of it may reach a partner. */
const LEAKS = [
  /\.(?:ts|js|mjs|cjs):\d+:\d+/,
  /node_modules/,
  /\n\s+at /,
  /QueryFailedError|EntityNotFound|TypeORMError/,
  /syntax error at or near|invalid input syntax for|violates .* constraint|duplicate key value/i,
  /current transaction is aborted|relation "\w+" does not exist/i,
  /RangeError|TypeError|ReferenceError|Maximum call stack/,
];
const TABLES = ['swaps', 'organizations', 'credentials', 'idempotency_keys', 'fixed_rates'];

interface Exchange {
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body?: Buffer;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

/**
 * Raw node:http rather than supertest: duplicate header lines, any method, bytes that are not
 * UTF-8 and content types supertest would rewrite all reach the server as written.
 */
function send(baseUrl: string, exchange: Exchange): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${baseUrl}${exchange.path}`,
      { method: exchange.method, headers: exchange.headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(exchange.body);
  });
}

// ---- generators ------------------------------------------------------------------------------

const HOSTILE_STRINGS = [
  "' OR '1'='1",
  "'; DROP TABLE swaps; --",
  '1; SELECT pg_sleep(5)',
  "btc' UNION SELECT secret_digest FROM credentials --",
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '${jndi:ldap://127.0.0.1/a}',
  '{{7*7}}',
  '../../../../etc/passwd',
  '%00',
  '\u0000',
  '\uFEFF',
  '\u202Ebtc',
  '\uD800',
  '🙂💱',
  'ｂｔｃ',
  'İ',
  '  btc  ',
  'BTC',
  'usdt-trc20',
  'bitcoin',
  '__proto__',
  'constructor',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '0.000000000000000000000000001',
  '1e308',
  '0x10',
  '1,5',
  '99999999999999999999999999999999999999999999999999',
  '',
  ' ',
  'null',
  'true',
];

const TICKERS = ['btc', 'eth', 'ltc', 'trx', 'usdt20', 'usdttrc20', 'xrp', 'BTC', 'doge'];

const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.constantFrom(...TICKERS),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer({ min: 100, max: 5000 }).map((n) => 'a'.repeat(n)),
);

/** Anything JSON can carry where a string is expected: wrong types, nesting, big numbers. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
);

/** Header values: latin-1 only (what HTTP can carry). */
const shortHeaderText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS.filter((s) => /^[\t\x20-\x7e\x80-\xff]*$/.test(s))),
  fc.stringMatching(/^[\t\x20-\x7e\x80-\xff]{0,60}$/),
);
/**
 * Long values stay under 4 KiB: past Node's 16 KiB header limit the HTTP parser itself answers
 * 431 with no body, before any of the app runs.
 */
const headerText: fc.Arbitrary<string> = fc.oneof(
  shortHeaderText,
  fc.integer({ min: 200, max: 4000 }).map((n) => 'b'.repeat(n)),
);

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=utf-16',
  'application/json; charset=koi8-r',
  'application/json; charset=',
  'application/json, text/plain',
  'application/merge-patch+json',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  '*/*',
  '',
];

/** Raw bodies that are not (valid, small, flat) JSON objects. */
function nested(depth: number, open: string, close: string): string {
  return `${open.repeat(depth)}1${close.repeat(depth)}`;
}
const rawBody: fc.Arbitrary<Buffer> = fc
  .oneof(
    fc.constantFrom(
      '',
      'null',
      '[]',
      '[{}]',
      '"btc"',
      '123',
      'true',
      '{',
      '{"from":"btc",}',
      "{'from':'btc'}",
      '{"from":"btc"}{"to":"eth"}',
      '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}',
      '{"from":"btc","from":"eth"}',
      'from=btc&to=eth',
      '<xml/>',
    ),
    fc.integer({ min: 50, max: 12000 }).map((d) => nested(d, '[', ']')),
    fc.integer({ min: 50, max: 6000 }).map((d) => nested(d, '{"a":', '}')),
    fc.integer({ min: 70_000, max: 90_000 }).map((n) => `{"from":"${'x'.repeat(n)}"}`),
    fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  )
  .map((text) => Buffer.from(text, 'latin1'));

/** A JSON object with the endpoint's fields, each absent, plausible or hostile, plus extras. */
function bodyOf(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Buffer> {
  const entries = Object.fromEntries(
    Object.entries(fields).map(([name, plausible]) => [
      name,
      fc.option(fc.oneof({ weight: 3, arbitrary: plausible }, hostileValue), {
        nil: undefined,
        freq: 6,
      }),
    ]),
  );
  const objectBody = fc
    .tuple(
      fc.record(entries, { requiredKeys: [] }),
      fc.option(fc.dictionary(hostileString, hostileValue, { minKeys: 1, maxKeys: 2 }), {
        nil: undefined,
        freq: 4,
      }),
    )
    .map(([known, extra]) => Buffer.from(JSON.stringify({ ...extra, ...known }), 'utf8'));
  return fc.oneof({ weight: 4, arbitrary: objectBody }, rawBody);
}

/** Percent-encodes the UTF-8 bytes; a lone surrogate becomes U+FFFD instead of throwing. */
function encode(text: string): string {
  return encodeURIComponent(Buffer.from(text, 'utf8').toString('utf8'));
}

/** A path segment: an encoded hostile string, or raw bytes that are not valid percent-encoding. */
const pathSegment: fc.Arbitrary<string> = fc.oneof(
  hostileString.filter((s) => s.length < 2000).map(encode),
  fc.constantFrom('%', '%zz', '%E0%A4%A', '%C0%AF', '..', '.', '%2e%2e', '%2F', 'a%00b', '%FF'),
  fc.stringMatching(/^[0-9a-f]{16}$/),
  fc.stringMatching(/^swp_[A-Za-z0-9_-]{1,70}$/),
  fc.uuid(),
);

const queryString: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom('lite', 'from', 'to', 'amount', 'limit', 'offset', 'partnerReferenceId'),
        hostileString.filter((s) => s.length < 200),
      ),
      fc.oneof(
        hostileString.filter((s) => s.length < 2000),
        fc.constantFrom('1', '0', '-1', '201', '1.5', 'true', 'yes', '1e3', '9'.repeat(30)),
      ),
      fc.boolean(),
    ),
    { maxLength: 5 },
  )
  .map((pairs) =>
    pairs
      .map(([k, v, bracketed]) =>
        // `a[b]=c` and repeated keys turn into objects and arrays in Express's query parser.
        bracketed ? `${encode(k)}[${encode(v)}]=${encode(v)}` : `${encode(k)}=${encode(v)}`,
      )
      .join('&'),
  );

// ---- the suite -------------------------------------------------------------------------------

describe('Fuzzing every endpoint', () => {
  let h: Harness;
  let partners: TestPartner[];
  let victimOrgId: string;
  let victimPublicKey: string;
  let swapId: string;
  let otherSwapId: string;
  let counts: Record<string, number>;
  let requestNo = 0;

  /** Per-IP limits are per address: with one trusted proxy hop each request gets its own. */
  function forwardedFor(): string {
    requestNo += 1;
    return `10.${(requestNo >> 16) & 255}.${(requestNo >> 8) & 255}.${requestNo & 255}`;
  }

  async function rowCounts(): Promise<Record<string, number>> {
    const sql = `SELECT ${TABLES.map((t) => `(SELECT count(*)::int FROM ${t}) AS ${t}`).join(', ')}`;
    const [row] = await h.db.query<Record<string, number>[]>(sql);
    return row;
  }

  beforeAll(async () => {
    h = await startHarness({
      api: {
        REDIS_KEY_PREFIX: `${testRedisPrefix()}fuzz-${randomBytes(3).toString('hex')}:`,
        TRUST_PROXY_HOPS: '1',
      },
    });
    const main = h.partner;
    // Several credentials of one organization, used in turn, stay under 30/s each.
    partners = [main];
    for (let i = 0; i < 7; i += 1) {
      partners.push(await issueCredential(h.api.app, main));
    }
    const other = await h.newPartner();
    const victim = await h.newPartner();
    victimOrgId = victim.organizationId;
    victimPublicKey = victim.publicKey;
    const swap = (who: TestPartner) =>
      request(h.api.url)
        .post('/v1/swaps')
        .set('Authorization', who.authorization)
        .set('Idempotency-Key', randomUUID())
        .send({
          from: 'btc',
          to: 'eth',
          amountFrom: '0.1',
          address: generateAddress('ethereum', (n) => randomBytes(n)),
        })
        .expect(201);
    swapId = ((await swap(main)).body as { swap: { id: string } }).swap.id;
    otherSwapId = ((await swap(other)).body as { swap: { id: string } }).swap.id;
    counts = await rowCounts();
  });

  afterAll(async () => {
    agent.destroy();
    await h?.close();
  });

  const partnerAuth = (): fc.Arbitrary<string | string[] | undefined> =>
    fc.oneof(
      { weight: 6, arbitrary: fc.nat({ max: 7 }).map((i) => partners[i].authorization) },
      fc.constant(undefined),
      fc.nat({ max: 7 }).map((i) => partners[i].authorization.replace('Bearer', 'bearer')),
      fc.nat({ max: 7 }).map((i) => `Bearer ${partners[i].publicKey}`),
      fc.nat({ max: 7 }).map((i) => `Bearer ${partners[i].publicKey}:${'0'.repeat(48)}`),
      fc.nat({ max: 7 }).map((i) => [partners[i].authorization, 'Bearer x:y']),
      fc.constant(`Bearer ${TEST_ADMIN_TOKEN}`),
      headerText.map((t) => `Bearer ${t}`),
      headerText,
    );

  const adminAuth = (): fc.Arbitrary<string | string[] | undefined> =>
    fc.oneof(
      { weight: 4, arbitrary: fc.constant(`Bearer ${TEST_ADMIN_TOKEN}`) },
      fc.constant(undefined),
      fc.constant(`Bearer ${TEST_ADMIN_TOKEN}x`),
      fc.constant(`Bearer ${TEST_ADMIN_TOKEN.slice(0, -1)}`),
      fc.constant(`Basic ${Buffer.from(`admin:${TEST_ADMIN_TOKEN}`).toString('base64')}`),
      fc.constant(partners[0].authorization),
      headerText.map((t) => `Bearer ${t}`),
    );

  /** Headers every request may carry: odd ids, encodings, duplicates, spoofed hop headers. */
  const extraHeaders: fc.Arbitrary<Record<string, string | string[]>> = fc.record(
    {
      'x-request-id': fc.oneof(
        headerText,
        fc.array(shortHeaderText, { minLength: 2, maxLength: 2 }),
      ),
      'content-encoding': fc.oneof(
        { weight: 4, arbitrary: fc.constant('identity') },
        fc.constantFrom('gzip', 'deflate', 'br', 'x-unknown'),
      ),
      accept: fc.constantFrom('text/html', 'application/xml', '*/*', 'application/json;q=0'),
      'x-http-method-override': fc.constantFrom('DELETE', 'PUT', 'GET'),
      'x-original-url': fc.constantFrom('/admin/organizations', '/health'),
      origin: fc.constantFrom('https://evil.example', 'null'),
      'x-custom': fc.array(shortHeaderText, { minLength: 2, maxLength: 3 }),
    },
    { requiredKeys: [] },
  );

  async function exchangeHolds(exchange: Exchange): Promise<void> {
    const headers: Record<string, string | string[]> = {
      ...exchange.headers,
      'x-forwarded-for': forwardedFor(),
    };
    if (exchange.body !== undefined) {
      headers['content-length'] = String(exchange.body.length);
    }
    const answer = await send(h.api.url, { ...exchange, headers });
    const where = `${exchange.method} ${exchange.path.slice(0, 200)} → ${answer.status} ${answer.text.slice(0, 300)}`;
    expect({ where, status: answer.status }).not.toEqual({ where, status: 500 });
    for (const leak of LEAKS) {
      expect({ where, leak: leak.test(answer.text) }).toEqual({ where, leak: false });
    }
    if (answer.status >= 300) {
      expect({ where, type: answer.headers['content-type'] }).toEqual({
        where,
        type: expect.stringMatching(/^application\/json/) as unknown,
      });
      const body = JSON.parse(answer.text) as { error?: Record<string, unknown> };
      expect({ where, keys: Object.keys(body) }).toEqual({ where, keys: ['error'] });
      const error = body.error ?? {};
      expect({ where, keys: Object.keys(error).sort() }).toEqual({ where, keys: ENVELOPE_KEYS });
      expect(ERROR_TYPES).toContain(error.type);
      expect(typeof error.code).toBe('string');
      expect(typeof error.message).toBe('string');
      expect(error.param === null || typeof error.param === 'string').toBe(true);
      expect(error.upstream_code === null || Number.isInteger(error.upstream_code)).toBe(true);
      expect(error.retry_after_ms === null || Number.isInteger(error.retry_after_ms)).toBe(true);
      if (answer.status >= 500) {
        expect({ where, type: error.type }).toEqual({ where, type: 'upstream_error' });
      }
      // A rejected request leaves no row behind.
      expect({ where, counts: await rowCounts() }).toEqual({ where, counts });
    } else {
      counts = await rowCounts();
    }
  }

  /** One property per endpoint family; `runs` keeps the whole suite to a few hundred requests. */
  async function fuzz(runs: number, exchanges: fc.Arbitrary<Exchange>): Promise<void> {
    await fc.assert(
      fc.asyncProperty(exchanges, (exchange) => exchangeHolds(exchange)),
      { seed: SEED, numRuns: runs, endOnFailure: true },
    );
  }

  function withHeaders(
    auth: fc.Arbitrary<string | string[] | undefined>,
    contentType: fc.Arbitrary<string | undefined>,
    more: fc.Arbitrary<Record<string, string | string[]>> = fc.constant({}),
  ): fc.Arbitrary<Record<string, string | string[]>> {
    return fc
      .tuple(auth, contentType, fc.option(extraHeaders, { nil: undefined, freq: 2 }), more)
      .map(([authorization, type, extra, specific]) => {
        const headers: Record<string, string | string[]> = { ...extra, ...specific };
        if (authorization !== undefined) {
          headers.authorization = authorization;
        }
        if (type !== undefined) {
          headers['content-type'] = type;
        }
        return headers;
      });
  }

  const jsonType = fc.oneof(
    { weight: 5, arbitrary: fc.constant<string | undefined>('application/json') },
    fc.constant(undefined),
    fc.constantFrom(...CONTENT_TYPES),
  );
  const ticker = fc.constantFrom(...TICKERS);
  const amount = fc.constantFrom('0.1', '1', '0.00000001', '100000', '0.123456789012345678');
  const address = fc.constantFrom(
    'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    '0x52908400098527886E0F7030069857D2E4169EE7',
    '0x52908400098527886e0f7030069857d2e4169ee7',
    'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
  );

  it('GET /v1/currencies', async () => {
    await fuzz(
      30,
      fc.record({
        method: fc.constantFrom('GET', 'GET', 'POST', 'DELETE', 'OPTIONS'),
        path: queryString.map((q) => `/v1/currencies?${q}`),
        headers: withHeaders(partnerAuth(), fc.constant(undefined)),
      }),
    );
  });

  it('GET /v1/pairs', async () => {
    await fuzz(
      30,
      fc.record({
        method: fc.constant('GET'),
        path: fc
          .tuple(ticker, ticker, queryString, fc.boolean())
          .map(([from, to, q, plain]) =>
            plain ? `/v1/pairs?from=${from}&to=${to}&${q}` : `/v1/pairs?${q}`,
          ),
        headers: withHeaders(partnerAuth(), fc.constant(undefined)),
      }),
    );
  });

  it('POST /v1/addresses/validate', async () => {
    await fuzz(
      40,
      fc.record({
        method: fc.constant('POST'),
        path: fc.constant('/v1/addresses/validate'),
        headers: withHeaders(partnerAuth(), jsonType),
        body: bodyOf({ currency: ticker, address, extraId: hostileString }),
      }),
    );
  });

  it('POST /v1/quotes', async () => {
    await fuzz(
      40,
      fc.record({
        method: fc.constant('POST'),
        path: fc.constant('/v1/quotes'),
        headers: withHeaders(partnerAuth(), jsonType),
        body: bodyOf({
          from: ticker,
          to: ticker,
          amountFrom: amount,
          mode: fc.constantFrom('float', 'fixed', 'FIXED'),
        }),
      }),
    );
  });

  it('GET /v1/public/quote', async () => {
    await fuzz(
      40,
      fc.record({
        method: fc.constantFrom('GET', 'GET', 'GET', 'OPTIONS', 'POST'),
        path: fc
          .tuple(ticker, ticker, amount, queryString, fc.boolean())
          .map(([from, to, a, q, plain]) =>
            plain ? `/v1/public/quote?from=${from}&to=${to}&amount=${a}` : `/v1/public/quote?${q}`,
          ),
        headers: withHeaders(
          fc.option(partnerAuth(), { nil: undefined }).map((a) => a ?? undefined),
          fc.constant(undefined),
        ),
      }),
    );
  });

  it('POST /v1/swaps', async () => {
    await fuzz(
      60,
      fc.record({
        method: fc.constant('POST'),
        path: fc.constant('/v1/swaps'),
        headers: withHeaders(
          partnerAuth(),
          jsonType,
          fc.record(
            {
              'idempotency-key': fc.oneof(
                { weight: 3, arbitrary: fc.uuid({ version: 4 }) },
                fc.uuid({ version: 4 }).map((k) => `"${k}"`),
                fc.uuid({ version: 4 }).map((k) => k.toUpperCase()),
                fc.uuid({ version: 1 }),
                fc.array(fc.uuid({ version: 4 }), { minLength: 2, maxLength: 2 }),
                shortHeaderText,
              ),
            },
            { requiredKeys: [] },
          ),
        ),
        body: bodyOf({
          from: ticker,
          to: ticker,
          amountFrom: amount,
          address,
          refundAddress: address,
          partnerReferenceId: hostileString,
          mode: fc.constantFrom('float', 'fixed'),
          rateId: fc.stringMatching(/^[0-9a-f]{32}$/),
          extraId: hostileString,
        }),
      }),
    );
  });

  it('GET /v1/swaps', async () => {
    await fuzz(
      30,
      fc.record({
        method: fc.constant('GET'),
        path: queryString.map((q) => `/v1/swaps?${q}`),
        headers: withHeaders(partnerAuth(), fc.constant(undefined)),
      }),
    );
  });

  it('GET /v1/swaps/{id}', async () => {
    await fuzz(
      40,
      fc.record({
        method: fc.constantFrom('GET', 'GET', 'GET', 'PUT', 'DELETE', 'PATCH'),
        path: fc
          .oneof(pathSegment, fc.constantFrom(swapId, otherSwapId, swapId.toUpperCase()))
          .map((id) => `/v1/swaps/${id}`),
        headers: withHeaders(partnerAuth(), fc.constant(undefined)),
      }),
    );
  });

  it('/admin/* with and without the token', async () => {
    const orgId = fc.oneof(pathSegment, fc.constant(victimOrgId), fc.uuid());
    const publicKey = fc.oneof(
      pathSegment,
      fc.constant(victimPublicKey),
      fc.stringMatching(/^pk_live_[0-9a-f]{32}$/),
    );
    const route: fc.Arbitrary<{ method: string; path: string; hasBody: boolean }> = fc.oneof(
      fc.constant({ method: 'GET', path: '/admin/organizations', hasBody: false }),
      fc.constant({ method: 'POST', path: '/admin/organizations', hasBody: true }),
      orgId.map((id) => ({ method: 'GET', path: `/admin/organizations/${id}`, hasBody: false })),
      orgId.map((id) => ({ method: 'PATCH', path: `/admin/organizations/${id}`, hasBody: true })),
      orgId.map((id) => ({
        method: 'POST',
        path: `/admin/organizations/${id}/credentials`,
        hasBody: false,
      })),
      orgId.map((id) => ({
        method: 'GET',
        path: `/admin/organizations/${id}/credentials`,
        hasBody: false,
      })),
      publicKey.map((k) => ({
        method: 'POST',
        path: `/admin/credentials/${k}/reveal`,
        hasBody: false,
      })),
      publicKey.map((k) => ({
        method: 'POST',
        path: `/admin/credentials/${k}/revoke`,
        hasBody: false,
      })),
      queryString.map((q) => ({ method: 'GET', path: `/admin/audit?${q}`, hasBody: false })),
      pathSegment.map((s) => ({ method: 'DELETE', path: `/admin/${s}`, hasBody: false })),
    );
    await fuzz(
      90,
      fc
        .tuple(
          route,
          withHeaders(adminAuth(), jsonType),
          bodyOf({
            name: hostileString,
            feePercent: fc.constantFrom('0', '1.5', '4', '4.00000001', 2, -1, 1e21),
            status: fc.constantFrom('active', 'suspended', 'pending_review', 'rejected', 'ACTIVE'),
            providerActivated: fc.constantFrom(true, false, 'true', 1),
            payoutAddress: fc.oneof(address, fc.constant(null)),
            payoutNetwork: fc.constantFrom('trc20', 'erc20', 'bep20'),
          }),
          fc.boolean(),
        )
        .map(([{ method, path, hasBody }, headers, body, sendBody]) => ({
          method,
          path,
          headers,
          body: hasBody || sendBody ? body : undefined,
        })),
    );
  });
});
