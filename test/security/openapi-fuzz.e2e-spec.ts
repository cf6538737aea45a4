import { randomBytes, randomUUID } from 'node:crypto';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import pg from 'pg';
import request from 'supertest';
import { generateAddress } from '#app/chains';
import { createPartner, issueCredential, type TestPartner } from '../factories/partners.js';
import { startTestApi, TEST_ADMIN_TOKEN, type TestApi } from '../support/api.js';
import { testDatabaseUrl, testRedisPrefix, truncateAll } from '../support/database.js';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.js';
import {
  FUZZ_WEBHOOK_URL,
  type Fixtures,
  type OpenApiDocument,
  type Operation,
  operationsOf,
  pathVariants,
  planRequests,
  type PlannedRequest,
} from './openapi-requests.js';

const ENVELOPE_KEYS = ['code', 'message', 'param', 'retry_after_ms', 'type', 'upstream_code'];
const TABLES = ['swaps', 'organizations', 'credentials', 'idempotency_keys', 'audit_log'];
/** A credential answers at most 30 requests a second: each gets fewer, however fast the run. */
const REQUESTS_PER_CREDENTIAL = 20;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 2 });

/** Raw node:http: paths that are not valid percent-encoding reach the server as written. */
function send(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}${path}`, { method, headers, agent }, (res) => {
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
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Every operation of the served OpenAPI document, called with a valid request
 * built from its schemas and then with one field, parameter or header at a time made hostile
 * (NUL, lone surrogates, control characters, null, huge numbers, deep nesting, wrong types), and
 * under other spellings of its path. No answer may be a 500; every non-2xx answer is the envelope;
 * a refused request reaches neither the provider nor the database.
 */
describe('Every route of the OpenAPI document, fuzzed from its schemas', () => {
  let sandbox: TestSandbox;
  let api: TestApi;
  let db: pg.Client;
  let document: OpenApiDocument;
  let owner: TestPartner;
  let fixtures: Fixtures;
  let requestNo = 0;

  /** With one trusted proxy hop every request comes from an address of its own. */
  function forwardedFor(): string {
    requestNo += 1;
    return `10.${(requestNo >> 16) & 255}.${(requestNo >> 8) & 255}.${requestNo & 255}`;
  }

  async function rowCounts(): Promise<Record<string, number>> {
    const sql = `SELECT ${TABLES.map((t) => `(SELECT count(*)::int FROM ${t}) AS ${t}`).join(', ')}`;
    return (await db.query<Record<string, number>>(sql)).rows[0];
  }

  beforeAll(async () => {
    await truncateAll();
    sandbox = await startTestSandbox();
    api = await startTestApi({
      PROVIDER_URL: sandbox.url,
      TEST_PROVIDER_URL: sandbox.url,
      TRUST_PROXY_HOPS: '1',
      REDIS_KEY_PREFIX: `${testRedisPrefix()}ofuzz-${randomBytes(3).toString('hex')}:`,
    });
    db = new pg.Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    // The partner routes and the operator routes are described in two documents.
    const partnerDocument = (await request(api.url).get('/v1/openapi.json').expect(200))
      .body as OpenApiDocument;
    const adminDocument = (
      await request(api.url)
        .get('/admin/openapi.json')
        .set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
        .expect(200)
    ).body as OpenApiDocument;
    document = {
      paths: { ...partnerDocument.paths, ...adminDocument.paths },
      components: {
        schemas: { ...partnerDocument.components.schemas, ...adminDocument.components.schemas },
      },
    };
    owner = await createPartner(api.app);
    // The operator's requests act on an organization of their own, not on the calling partner.
    const target = await createPartner(api.app);
    const createSwap = async (who: TestPartner): Promise<string> => {
      const swap = await request(api.url)
        .post('/v1/swaps')
        .set('Authorization', who.authorization)
        .set('Idempotency-Key', randomUUID())
        .send({
          from: 'btc',
          to: 'eth',
          amountFrom: '0.5',
          address: generateAddress('ethereum', (n) => randomBytes(n)),
        })
        .expect(201);
      return (swap.body as { swap: { id: string } }).swap.id;
    };
    const createEndpoint = async (): Promise<string> => {
      const res = await request(api.url)
        .post('/v1/webhook_endpoints')
        .set('Authorization', owner.authorization)
        .send({ url: FUZZ_WEBHOOK_URL })
        .expect(201);
      return (res.body as { webhookEndpoint: { id: string } }).webhookEndpoint.id;
    };
    const swapId = await createSwap(owner);
    const [event] = (
      await request(api.url)
        .get(`/v1/swaps/${swapId}/events`)
        .set('Authorization', owner.authorization)
        .expect(200)
    ).body.events as { id: string }[];
    fixtures = {
      webhookEndpointId: await createEndpoint(),
      deletableWebhookEndpointId: await createEndpoint(),
      eventId: event.id,
      swapId,
      testSwapId: await createSwap(await issueCredential(api.app, owner, 'test')),
      organizationId: target.organizationId,
      publicKey: target.publicKey,
    };
  });

  afterAll(async () => {
    agent.destroy();
    await db.end();
    await api.close();
    await sandbox.close();
  });

  it('serves documents with the partner, admin and public routes', () => {
    const routes = operationsOf(document).map((o) => `${o.method} ${o.template}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /v1/swaps',
        'GET /v1/swaps',
        'GET /v1/swaps/{id}',
        'POST /v1/quotes',
        'GET /v1/public/quote',
        'POST /admin/organizations',
        'PATCH /admin/organizations/{id}',
        'POST /admin/swaps/import',
        'GET /admin/audit',
        'GET /v1/events',
        'GET /v1/swaps/{id}/events',
        'POST /v1/webhook_endpoints',
        'POST /v1/webhook_endpoints/{id}/rotate_secret',
        'GET /admin/organizations/{id}/webhook_endpoints',
      ]),
    );
  });

  /** Sends one request; returns its status and what it broke of the rules every answer keeps. */
  async function holds(
    operation: Operation,
    plan: PlannedRequest,
    authorization: string | null,
    path = plan.path,
  ): Promise<{ status: number; broken: string[] }> {
    const headers: Record<string, string> = { ...plan.headers, 'X-Forwarded-For': forwardedFor() };
    if (authorization !== null) {
      headers.Authorization = authorization;
    }
    const body = plan.rawBody ?? (plan.body === undefined ? undefined : JSON.stringify(plan.body));
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
    }
    const callsBefore = (await sandbox.control.stats()).totalCalls;
    const rowsBefore = await rowCounts();
    const answer = await send(api.url, operation.method, path, headers, body);
    const broken: string[] = [];
    if (answer.status >= 500) {
      broken.push(`a ${answer.status}: ${answer.text.slice(0, 200)}`);
    }
    if (answer.status >= 300) {
      let envelope: unknown = null;
      try {
        envelope = JSON.parse(answer.text);
      } catch {
        broken.push(`a body that is not JSON: ${answer.text.slice(0, 100)}`);
      }
      const error = (envelope as { error?: Record<string, unknown> } | null)?.error;
      const keys = Object.keys(error ?? {}).sort();
      if (Object.keys(envelope ?? {}).join() !== 'error' || keys.join() !== ENVELOPE_KEYS.join()) {
        broken.push(`not the envelope: ${answer.text.slice(0, 200)}`);
      }
      if (!/^application\/json/.test(answer.headers['content-type'] ?? '')) {
        broken.push(`content type ${answer.headers['content-type']}`);
      }
      // Refused means refused: no provider call and no row left behind.
      const calls = (await sandbox.control.stats()).totalCalls - callsBefore;
      if (calls !== 0) {
        broken.push(`${calls} provider call(s) for a refused request`);
      }
      const rows = await rowCounts();
      if (JSON.stringify(rows) !== JSON.stringify(rowsBefore)) {
        broken.push(`rows changed for a refused request: ${JSON.stringify(rows)}`);
      }
    }
    if (
      (operation.caller !== 'anyone' || answer.status >= 300) &&
      answer.headers['cache-control'] !== 'no-store'
    ) {
      broken.push(`Cache-Control ${answer.headers['cache-control']}`);
    }
    return { status: answer.status, broken };
  }

  it('never answers 500, always answers errors in the envelope, refuses what it cannot store', async () => {
    const credentials = async function* (operation: Operation): AsyncGenerator<string> {
      // The test helpers answer test credentials only.
      const mode = operation.template.startsWith('/v1/test_helpers/') ? 'test' : 'live';
      for (;;) {
        const credential = await issueCredential(api.app, owner, mode);
        for (let i = 0; i < REQUESTS_PER_CREDENTIAL; i += 1) {
          yield credential.authorization;
        }
      }
    };
    const failures: string[] = [];
    let sent = 0;
    for (const operation of operationsOf(document)) {
      // A fresh credential per route, renewed before it nears the per-credential limit.
      const partnerAuth = credentials(operation);
      const authFor = async (): Promise<string | null> =>
        operation.caller === 'partner'
          ? ((await partnerAuth.next()).value as string)
          : operation.caller === 'admin'
            ? `Bearer ${TEST_ADMIN_TOKEN}`
            : null;
      const check = async (plan: PlannedRequest, path = plan.path): Promise<number> => {
        const { status, broken } = await holds(operation, plan, await authFor(), path);
        sent += 1;
        const where = `${operation.method} ${path.slice(0, 100)} (${plan.label}) → ${status}`;
        failures.push(...broken.map((problem) => `${where}: ${problem}`));
        return status;
      };
      for (const [index, planned] of planRequests(document, operation, fixtures).entries()) {
        const plan = planned();
        const status = await check(plan);
        const where = `${operation.method} ${operation.template} (${plan.label}) → ${status}`;
        if (index === 0 && status >= 300) {
          failures.push(`${where}: the baseline must succeed, or its variants prove nothing`);
        }
        if (plan.mustRefuse && status !== 400) {
          failures.push(`${where}: text the service cannot store must be refused with 400`);
        }
        if (plan.nullForOptional && status >= 300 && status !== 400) {
          failures.push(`${where}: null for an optional field is absent (2xx) or 400`);
        }
        if (index === 0) {
          for (const variant of pathVariants(plan.path)) {
            const variantStatus = await check(planned(), variant);
            if (variantStatus !== 404) {
              failures.push(`${operation.method} ${variant} → ${variantStatus}: expected 404`);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(500);
  }, 120_000);
});
