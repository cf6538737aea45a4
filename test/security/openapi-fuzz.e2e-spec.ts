import { randomBytes, randomUUID } from 'node:crypto';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import request from 'supertest';
import { generateAddress } from '#app/chains';
import { createWidgetKey, issueCredential, type TestPartner } from '../factories/partners.js';
import { TEST_ADMIN_TOKEN } from '../support/api.js';
import { createDashboardUser } from '../support/dashboard.js';
import { startHarness, type Harness } from '../support/harness.js';
import { Conformance, invalidValues, validValues } from './openapi-conformance.js';
import {
  fillPath,
  FUZZ_WEBHOOK_URL,
  type Fixtures,
  type OpenApiDocument,
  type Operation,
  operationsOf,
  pathVariants,
  planRequests,
  type PlannedRequest,
  resolve,
  type Schema,
} from './openapi-requests.js';

const ENVELOPE_KEYS = ['code', 'message', 'param', 'retry_after_ms', 'type', 'upstream_code'];
const TABLES = ['swaps', 'organizations', 'credentials', 'idempotency_keys', 'audit_log'];
/** The sandbox's methods for reference data: Changelly's, then ChangeNOW's. */
const REFERENCE_DATA = new Set(['getCurrenciesFull', 'getPairsParams', 'currencies', 'range']);

/** What a refused request must leave as it was: provider calls by method, row counts. */
interface Snapshot {
  calls: Map<string, number>;
  rows: string;
}

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
  let h: Harness;
  let document: OpenApiDocument;
  let fixtures: Fixtures;
  let conformance: Conformance;
  let requestNo = 0;
  /** Requests sent per check, for the report. */
  const cases: Record<string, number> = {};

  /** With one trusted proxy hop every request comes from an address of its own. */
  function forwardedFor(): string {
    requestNo += 1;
    return `10.${(requestNo >> 16) & 255}.${(requestNo >> 8) & 255}.${requestNo & 255}`;
  }

  /**
   * Provider calls and row counts after the last refused request, when nothing has changed them
   * since (it was refused, and no credential was issued): the next request's "before", for free.
   */
  let lastRefusal: Snapshot | null = null;

  /** Calls by provider and method, at both providers, and the row counts. */
  async function snapshot(): Promise<Snapshot> {
    const [stats, rows] = await Promise.all([h.sandbox.control.stats(), rowCounts()]);
    const calls = Object.entries(stats.providers).flatMap(([provider, { calls: byMethod }]) =>
      Object.entries(byMethod).map(([method, count]): [string, number] => [
        `${provider}.${method}`,
        count,
      ]),
    );
    return { calls: new Map(calls), rows: JSON.stringify(rows) };
  }

  /**
   * The calls made between two snapshots, as `provider.method × count`, but for reference data: a
   * refusal may rest on the currencies or a pair's bounds, which the first request after their
   * cache ran out reloads, refused or not (a slow run outlives the bounds' 60 s).
   */
  function callsBetween(before: Snapshot, after: Snapshot): string[] {
    return [...after.calls].flatMap(([name, count]) => {
      const made = count - (before.calls.get(name) ?? 0);
      return made > 0 && !REFERENCE_DATA.has(name.split('.')[1]) ? [`${name} × ${made}`] : [];
    });
  }

  /** Issues a credential, which adds a row: the remembered state is stale after it. */
  function freshCredential(mode: 'live' | 'test'): Promise<TestPartner> {
    lastRefusal = null;
    return issueCredential(h.api.app, h.partner, mode);
  }

  async function rowCounts(): Promise<Record<string, number>> {
    const sql = `SELECT ${TABLES.map((t) => `(SELECT count(*)::int FROM ${t}) AS ${t}`).join(', ')}`;
    return (await h.db.query<Record<string, number>[]>(sql))[0];
  }

  beforeAll(async () => {
    // Two providers, so that taking one out of routing (the baseline of its switch) succeeds.
    h = await startHarness({ providers: 'both', api: { TRUST_PROXY_HOPS: '1' } });
    // The partner routes and the operator routes are described in two documents.
    const partnerDocument = (await request(h.api.url).get('/v1/openapi.json').expect(200))
      .body as OpenApiDocument;
    const adminDocument = (
      await request(h.api.url)
        .get('/admin/openapi.json')
        .set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
        .expect(200)
    ).body as OpenApiDocument;
    conformance = new Conformance([
      partnerDocument as unknown as Record<string, unknown>,
      adminDocument as unknown as Record<string, unknown>,
    ]);
    document = {
      paths: { ...partnerDocument.paths, ...adminDocument.paths },
      components: {
        schemas: { ...partnerDocument.components.schemas, ...adminDocument.components.schemas },
      },
    };
    // The operator's requests act on an organization of their own, not on the calling partner.
    const target = await h.newPartner();
    const createSwap = async (who: TestPartner): Promise<string> => {
      const swap = await request(h.api.url)
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
      const res = await request(h.api.url)
        .post('/v1/webhook_endpoints')
        .set('Authorization', h.partner.authorization)
        .send({ url: FUZZ_WEBHOOK_URL })
        .expect(201);
      return (res.body as { webhookEndpoint: { id: string } }).webhookEndpoint.id;
    };
    const swapId = await createSwap(h.partner);
    const [event] = (
      await request(h.api.url)
        .get(`/v1/swaps/${swapId}/events`)
        .set('Authorization', h.partner.authorization)
        .expect(200)
    ).body.events as { id: string }[];
    fixtures = {
      webhookEndpointId: await createEndpoint(),
      deletableWebhookEndpointId: await createEndpoint(),
      eventId: event.id,
      swapId,
      testSwapId: await createSwap(await issueCredential(h.api.app, h.partner, 'test')),
      organizationId: target.organizationId,
      publicKey: target.publicKey,
      userId: (await createDashboardUser(h.api, target.organizationId, 'viewer')).user.id,
      widgetKey: await createWidgetKey(h.api.app, target.organizationId, ['https://shop.example']),
      providerId: 'changenow',
    };
  }, 120_000);

  afterAll(async () => {
    process.stdout.write(`OpenAPI fuzz cases: ${JSON.stringify(cases)}\n`);
    agent.destroy();
    await h?.close();
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
  ): Promise<{ status: number; broken: string[]; answer: Answer }> {
    const headers: Record<string, string> = { ...plan.headers, 'X-Forwarded-For': forwardedFor() };
    if (authorization !== null) {
      headers.Authorization = authorization;
    }
    const body = plan.rawBody ?? (plan.body === undefined ? undefined : JSON.stringify(plan.body));
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
    }
    const before = lastRefusal ?? (await snapshot());
    lastRefusal = null;
    const answer = await send(h.api.url, operation.method, path, headers, body);
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
      const after = await snapshot();
      const calls = callsBetween(before, after);
      if (calls.length > 0) {
        broken.push(`provider calls for a refused request: ${calls.join(', ')}`);
      }
      if (after.rows !== before.rows) {
        broken.push(`rows changed for a refused request: ${after.rows}`);
      }
      // Nothing changed since: the next request starts from the same state.
      lastRefusal = calls.length === 0 && after.rows === before.rows ? after : null;
    }
    if (
      (operation.caller !== 'anyone' || answer.status >= 300) &&
      answer.headers['cache-control'] !== 'no-store'
    ) {
      broken.push(`Cache-Control ${answer.headers['cache-control']}`);
    }
    // Another spelling of the path is another (unknown) path: the document says nothing of it.
    if (path === plan.path) {
      broken.push(...conformance.check(operation, answer));
    }
    return { status: answer.status, broken, answer };
  }

  it('never answers 500, always answers errors in the envelope, refuses what it cannot store', async () => {
    const credentials = async function* (operation: Operation): AsyncGenerator<string> {
      // The test helpers answer test credentials only.
      const mode = operation.template.startsWith('/v1/test_helpers/') ? 'test' : 'live';
      for (;;) {
        const credential = await freshCredential(mode);
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
        // A test helper may meet a test swap already moved on: a state conflict (409), not the field.
        if (plan.nullForOptional && status >= 300 && status !== 400 && status !== 409) {
          failures.push(
            `${where}: null for an optional field is absent (2xx), 400 or a 409 conflict`,
          );
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
    cases.hostile = sent;
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(500);
    // About 1,600 requests: 10 s on a quiet machine, 100 s on a loaded one.
  }, 400_000);

  /** Fresh credentials of one mode, each used for fewer requests than its per-second limit. */
  function credentialPool(mode: 'live' | 'test'): () => Promise<string> {
    let current: string | null = null;
    let used = 0;
    return async () => {
      if (current === null || used >= REQUESTS_PER_CREDENTIAL) {
        current = (await freshCredential(mode)).authorization;
        used = 0;
      }
      used += 1;
      return current;
    };
  }

  const live = (): (() => Promise<string>) => credentialPool('live');

  function authFor(operation: Operation, pools: Record<'live' | 'test', () => Promise<string>>) {
    if (operation.caller === 'admin') {
      return Promise.resolve(`Bearer ${TEST_ADMIN_TOKEN}`);
    }
    if (operation.caller === 'anyone') {
      return Promise.resolve(null);
    }
    return pools[operation.template.startsWith('/v1/test_helpers/') ? 'test' : 'live']();
  }

  /** The baseline of `operation` with one body property or query parameter replaced. */
  function variant(
    operation: Operation,
    where: 'body' | 'query',
    name: string,
    value: unknown,
  ): PlannedRequest {
    const plan = planRequests(document, operation, fixtures)[0]();
    if (where === 'body') {
      const body = { ...(plan.body as Record<string, unknown>) };
      if (value === undefined) {
        delete body[name];
      } else {
        body[name] = value;
      }
      return { ...plan, body };
    }
    const [pathname, search] = plan.path.split('?');
    const query = new URLSearchParams(search ?? '');
    if (value === undefined) {
      query.delete(name);
    } else {
      query.set(name, typeof value === 'string' ? value : JSON.stringify(value));
    }
    const text = query.toString();
    return { ...plan, path: text ? `${pathname}?${text}` : pathname };
  }

  /** Body properties and query parameters of an operation, with their schemas. */
  function inputsOf(
    operation: Operation,
  ): { where: 'body' | 'query'; name: string; schema: Schema; required: boolean }[] {
    const inputs: { where: 'body' | 'query'; name: string; schema: Schema; required: boolean }[] =
      [];
    if (operation.body) {
      const body = resolve(document, operation.body);
      const required = new Set(body.required ?? []);
      for (const [name, schema] of Object.entries(body.properties ?? {})) {
        inputs.push({ where: 'body', name, schema, required: required.has(name) });
      }
    }
    for (const parameter of operation.parameters.filter((p) => p.in === 'query')) {
      inputs.push({
        where: 'query',
        name: parameter.name,
        schema: parameter.schema,
        required: parameter.required ?? false,
      });
    }
    return inputs;
  }

  /** Removes a webhook endpoint a valid request created, so the 10-per-mode cap is never met. */
  async function cleanUp(operation: Operation, answer: Answer, authorization: string | null) {
    if (
      operation.method === 'POST' &&
      operation.template === '/v1/webhook_endpoints' &&
      answer.status === 201
    ) {
      const { id } = (JSON.parse(answer.text) as { webhookEndpoint: { id: string } })
        .webhookEndpoint;
      await request(h.api.url)
        .delete(`/v1/webhook_endpoints/${id}`)
        .set('Authorization', authorization ?? '')
        .set('X-Forwarded-For', forwardedFor())
        .expect(204);
      lastRefusal = null;
    }
  }

  it('refuses with 400 every request the schema refuses, and accepts what it accepts', async () => {
    const pools = { live: live(), test: credentialPool('test') };
    const failures: string[] = [];
    let refusedCases = 0;
    let acceptedCases = 0;
    for (const operation of operationsOf(document).filter(
      (o) => !o.template.startsWith('/admin/'),
    )) {
      for (const input of inputsOf(operation)) {
        // A query string is text: a number or `null` there is just a string.
        const invalid: [string, unknown][] = invalidValues(document, input.schema).filter(
          ([label]) => input.where === 'body' || !['a number for a string', 'null'].includes(label),
        );
        if (input.required) {
          invalid.push(['left out', undefined]);
        }
        for (const [label, value] of invalid) {
          const authorization = await authFor(operation, pools);
          const plan = variant(operation, input.where, input.name, value);
          const { status, broken, answer } = await holds(operation, plan, authorization);
          refusedCases += 1;
          const where = `${operation.method} ${operation.template} ${input.where} ${input.name} = ${label} → ${status}`;
          failures.push(...broken.map((problem) => `${where}: ${problem}`));
          if (status !== 400) {
            failures.push(`${where}: the schema refuses it, so must the service (400)`);
          }
          await cleanUp(operation, answer, authorization);
        }
        for (const [label, value] of validValues(document, input.schema)) {
          const authorization = await authFor(operation, pools);
          const plan = variant(operation, input.where, input.name, value);
          const { status, broken, answer } = await holds(operation, plan, authorization);
          acceptedCases += 1;
          const where = `${operation.method} ${operation.template} ${input.where} ${input.name} = ${label} → ${status}`;
          failures.push(...broken.map((problem) => `${where}: ${problem}`));
          const error =
            status >= 400
              ? (
                  JSON.parse(answer.text) as {
                    error: { code: string; param: string | null; upstream_code: number | null };
                  }
                ).error
              : null;
          // A valid shape may still be refused for what it names (an unknown ticker, a swap in
          // another state): with a code of its own, never as a malformed field.
          if (
            error &&
            error.code === 'invalid_request' &&
            error.param === input.name &&
            error.upstream_code === null &&
            !SEMANTIC_FIELDS.has(input.name)
          ) {
            failures.push(
              `${where}: the schema accepts it, the service refused it: ${answer.text.slice(0, 160)}`,
            );
          }
          await cleanUp(operation, answer, authorization);
        }
      }
    }
    cases.schemaRefused = refusedCases;
    cases.schemaAccepted = acceptedCases;
    expect(failures).toEqual([]);
    expect(refusedCases).toBeGreaterThan(100);
    expect(acceptedCases).toBeGreaterThan(30);
  }, 120_000);

  it('answers 405 with Allow to every method a documented path does not serve', async () => {
    const failures: string[] = [];
    let sent = 0;
    const pools = { live: live(), test: credentialPool('test') };
    const byPath = new Map<string, Operation[]>();
    for (const operation of operationsOf(document)) {
      byPath.set(operation.template, [...(byPath.get(operation.template) ?? []), operation]);
    }
    for (const [template, served] of byPath) {
      const methods = new Set(served.map((o) => o.method));
      if (methods.has('GET')) {
        methods.add('HEAD');
      }
      const allow = [...methods].sort().join(', ');
      const path = planRequests(document, served[0], fixtures)[0]().path.split('?')[0];
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE', 'OPTIONS']) {
        // The public quote answers CORS preflights (OPTIONS) for browsers.
        if (methods.has(method) || (method === 'OPTIONS' && template === '/v1/public/quote')) {
          continue;
        }
        // A body the content-type rule would refuse (415) where a method carries one: 405 comes first.
        const withBody = ['POST', 'PUT', 'PATCH'].includes(method);
        const authorization = await authFor(served[0], pools);
        const answer = await send(
          h.api.url,
          method,
          path,
          {
            ...(authorization === null ? {} : { Authorization: authorization }),
            ...(withBody ? { 'Content-Type': 'text/plain' } : {}),
            'X-Forwarded-For': forwardedFor(),
          },
          withBody ? 'not json' : undefined,
        );
        sent += 1;
        if (answer.status !== 405 || answer.headers.allow !== allow) {
          failures.push(
            `${method} ${template} → ${answer.status} Allow ${answer.headers.allow}: expected 405 Allow ${allow}`,
          );
        }
      }
    }
    cases.unsupportedMethods = sent;
    expect(failures).toEqual([]);
  }, 60_000);

  it('answers 401 to every secured operation called without or with a wrong credential', async () => {
    const failures: string[] = [];
    let sent = 0;
    const wrong = {
      none: null,
      'a malformed bearer': 'Bearer nonsense',
      'an unknown key': `Bearer pk_live_${'0'.repeat(32)}:sk_live_${'0'.repeat(48)}`,
      'Basic auth': 'Basic dXNlcjpwYXNz',
    };
    for (const operation of operationsOf(document).filter((o) => o.caller !== 'anyone')) {
      const other =
        operation.caller === 'admin'
          ? (await freshCredential('live')).authorization
          : `Bearer ${TEST_ADMIN_TOKEN}`;
      for (const [label, authorization] of Object.entries({
        ...wrong,
        "the other API's credential": other,
      })) {
        const plan = planRequests(document, operation, fixtures)[0]();
        const { status, broken, answer } = await holds(operation, plan, authorization);
        sent += 1;
        const where = `${operation.method} ${operation.template} with ${label} → ${status}`;
        failures.push(...broken.map((problem) => `${where}: ${problem}`));
        if (status !== 401 || !answer.text.includes('"unauthenticated"')) {
          failures.push(`${where}: expected 401 unauthenticated`);
        }
      }
    }
    cases.authentication = sent;
    expect(failures).toEqual([]);
  }, 60_000);

  it('follows the links from each create through what they lead to (stateful)', async () => {
    const failures: string[] = [];
    let sent = 0;
    let followed = 0;
    /** The resources made along the way, by the answer's top-level key (`swap`, `credential`…). */
    const created = new Set<string>();
    // Swaps start in test mode here, so the test helpers the links lead to can act on them.
    const pools = { live: credentialPool('test'), test: credentialPool('test') };
    const operations = operationsOf(document);
    const byId = new Map(operations.map((o) => [o.operationId, o]));
    const pointer = (body: unknown, expression: string): string =>
      String(
        expression
          .replace('$response.body#/', '')
          .split('/')
          .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], body),
      );
    /** Follows `source`'s links from its answer, then theirs, each operation once per chain. */
    const follow = async (
      source: Operation,
      body: unknown,
      authorization: string | null,
      seen: Set<string>,
    ): Promise<void> => {
      const links = Object.entries(source.links);
      // Deleting last keeps the other links' target alive.
      const ordered = [
        ...links.filter(([, l]) => !l.operationId.endsWith('_delete')),
        ...links.filter(([, l]) => l.operationId.endsWith('_delete')),
      ];
      for (const [name, link] of ordered) {
        const target = byId.get(link.operationId);
        if (!target) {
          failures.push(`${source.operationId}.${name}: no operation ${link.operationId}`);
          continue;
        }
        const plan = planRequests(document, target, fixtures)[0]();
        const values = Object.fromEntries(
          Object.entries(link.parameters).map(([param, expression]) => [
            param,
            pointer(body, expression),
          ]),
        );
        const [, search] = plan.path.split('?');
        const path = `${fillPath(target.template, values)}${search ? `?${search}` : ''}`;
        const next = await holds(target, plan, authorization, path);
        sent += 1;
        followed += 1;
        if (next.status === 201) {
          Object.keys(JSON.parse(next.answer.text) as object).forEach((key) => created.add(key));
        }
        const where = `${source.operationId} -${name}→ ${link.operationId} ${path} → ${next.status}`;
        failures.push(...next.broken.map((p) => `${where}: ${p}`));
        failures.push(...conformance.check(target, next.answer).map((p) => `${where}: ${p}`));
        if (next.status >= 300) {
          failures.push(`${where}: ${next.answer.text.slice(0, 160)}`);
        } else if (!seen.has(target.operationId) && next.answer.text) {
          await follow(
            target,
            JSON.parse(next.answer.text),
            authorization,
            new Set([...seen, target.operationId]),
          );
        }
      }
    };
    const creates = operations.filter(
      (o) =>
        o.method === 'POST' &&
        Object.keys(o.links).length > 0 &&
        !o.template.includes('test_helpers'),
    );
    for (const source of creates) {
      const authorization = await authFor(source, pools);
      const first = await holds(
        source,
        planRequests(document, source, fixtures)[0](),
        authorization,
      );
      sent += 1;
      if (first.status === 201) {
        Object.keys(JSON.parse(first.answer.text) as object).forEach((key) => created.add(key));
      }
      failures.push(...first.broken.map((p) => `${source.operationId} → ${first.status}: ${p}`));
      if (first.status >= 300) {
        failures.push(
          `${source.operationId} → ${first.status}: the chain must start with a success`,
        );
        continue;
      }
      await follow(
        source,
        JSON.parse(first.answer.text),
        authorization,
        new Set([source.operationId]),
      );
    }
    cases.stateful = sent;
    cases.linksFollowed = followed;
    cases.resourcesCreated = created.size;
    expect(creates.map((o) => o.operationId)).toEqual(
      expect.arrayContaining([
        'Swaps_create',
        'WebhookEndpoints_create',
        'AdminOrganizations_create',
      ]),
    );
    expect(failures).toEqual([]);
    expect(followed).toBeGreaterThanOrEqual(30);
    // One of each resource a partner or an operator can create.
    expect([...created].sort()).toEqual(
      expect.arrayContaining([
        'credential',
        'invitation',
        'organization',
        'swap',
        'webhookEndpoint',
        'widgetKey',
      ]),
    );
  }, 60_000);
});

/** Fields whose valid shape can still name something the service does not know or allow. */
const SEMANTIC_FIELDS = new Set(['after', 'url', 'rateId', 'amountFrom', 'amount']);
