import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import request from 'supertest';
import { ERROR_TABLE } from '#app/errors';
import { ValidateAddressDto } from '../apps/api/platform/contract/validate-address.dto.js';
import { strictBodySchema } from '../apps/api/platform/openapi/request-schemas.js';
import { CreateQuoteDto } from '../apps/api/platform/contract/create-quote.dto.js';
import { CreateSwapDto } from '../apps/api/platform/contract/create-swap.dto.js';
import { TestDepositDto, TestStatusDto } from '../apps/api/platform/contract/test-helpers.dto.js';
import {
  CreateWebhookEndpointDto,
  UpdateWebhookEndpointDto,
} from '../apps/api/partner-api/webhook-endpoints/dto/webhook-endpoint.dto.js';
import { issueCredential } from './factories/partners.js';
import { TEST_ADMIN_TOKEN } from './support/api.js';
import { startHarness, type Harness } from './support/harness.js';

const run = promisify(execFile);
/** The partner request bodies, each described from its validators. */
const REQUEST_BODIES = [
  CreateSwapDto,
  CreateQuoteDto,
  ValidateAddressDto,
  CreateWebhookEndpointDto,
  UpdateWebhookEndpointDto,
  TestDepositDto,
  TestStatusDto,
];
/** Jest runs from the repository root, as the other suites that start built apps assume. */
const ROOT = process.cwd();
const CHROMIUM = '/usr/bin/chromium';
const ADMIN = `Bearer ${TEST_ADMIN_TOKEN}`;

interface ResponseObject {
  description: string;
  headers?: Record<string, unknown>;
  links?: Record<string, unknown>;
  content?: Record<string, { schema: Record<string, unknown> }>;
}

interface SchemaObject {
  enum?: string[];
  properties: Record<string, unknown>;
}

interface OperationObject {
  operationId?: string;
  parameters?: { name: string; in: string; schema?: Record<string, unknown> }[];
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  tags?: string[];
  responses: Record<string, ResponseObject>;
}

interface Document {
  openapi: string;
  info: { title: string; license?: { name: string; url?: string } };
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  webhooks?: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, SchemaObject> };
}

function operations(document: Document): [string, OperationObject][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]): [string, OperationObject] => [
      `${method.toUpperCase()} ${path}`,
      op,
    ]),
  );
}

/** The codes an error response names in its schema (an `enum` on `error.code`). */
function codesOf(response: ResponseObject): string[] {
  const schema = response.content?.['application/json']?.schema as {
    properties?: { error?: { properties?: { code?: { enum?: string[] } } } };
  };
  return schema?.properties?.error?.properties?.code?.enum ?? [];
}

/** A program of node_modules run by this Node (the machine's own may be older). */
function nodeBin(script: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  return run(process.execPath, [join(ROOT, 'node_modules', script), ...args], {
    cwd,
    env: { ...process.env, ...env },
    maxBuffer: 16 * 1024 * 1024,
  });
}

/**
 * A partner's program, typed from the served document: the test-mode walkthrough (quote, an
 * address from the helper, validate it, create, deposit, poll) through openapi-fetch. A field or
 * route the document gets wrong fails `tsc --strict` or the run.
 */
const TYPED_CLIENT = `import { randomUUID } from 'node:crypto';
import createClient from 'openapi-fetch';
import type { components, paths } from './schema.js';

type Swap = components['schemas']['SwapResource'];

const client = createClient<paths>({
  baseUrl: process.env.API_URL,
  headers: { Authorization: \`Bearer \${process.env.CREDENTIAL}\` },
});

function must<T>(answer: { data?: T; error?: unknown; response: Response }, step: string): T {
  if (answer.data === undefined) {
    throw new Error(\`\${step}: \${answer.response.status} \${JSON.stringify(answer.error)}\`);
  }
  return answer.data;
}

const { quote } = must(
  await client.POST('/v1/quotes', { body: { from: 'btc', to: 'eth', amountFrom: '0.1' } }),
  'quote',
);
const { addresses } = must(
  await client.GET('/v1/test_helpers/addresses', { params: { query: { currency: 'eth' } } }),
  'addresses',
);
const address = addresses[0];
const { valid } = must(
  await client.POST('/v1/addresses/validate', { body: { currency: 'eth', address } }),
  'validate',
);
if (!valid) {
  throw new Error(\`the helper's address \${address} is not valid\`);
}
const created = must(
  await client.POST('/v1/swaps', {
    params: { header: { 'Idempotency-Key': randomUUID() } },
    body: { from: quote.from, to: quote.to, amountFrom: quote.amountFrom, address },
  }),
  'create',
);
must(
  await client.POST('/v1/test_helpers/swaps/{id}/deposit', {
    params: { path: { id: created.swap.id } },
    body: {},
  }),
  'deposit',
);
const statuses: Swap['status'][] = [];
let swap: Swap = created.swap;
const deadline = Date.now() + 15_000;
while (swap.status !== 'finished' && Date.now() < deadline) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  swap = must(
    await client.GET('/v1/swaps/{id}', { params: { path: { id: created.swap.id } } }),
    'poll',
  ).swap;
  statuses.push(swap.status);
}
console.log(JSON.stringify({ status: swap.status, livemode: swap.livemode, statuses }));
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    types: ['node'],
    skipLibCheck: true,
    outDir: 'out',
  },
  files: ['client.ts', 'schema.d.ts'],
};

/**
 * The API descriptions (docs/decisions.md, "The API descriptions: two documents, errors from the
 * code table, Swagger UI at /docs"): the partner document and the operator one, both clean under
 * Redocly's recommended rules; a client typed from the partner document that runs the test-mode
 * flow to `finished`; and the reference page at `/docs`, rendered in a real browser.
 */
describe('OpenAPI documents, a typed client and /docs', () => {
  let h: Harness;
  let partnerDocument: Document;
  let adminDocument: Document;
  let work: string;

  beforeAll(async () => {
    h = await startHarness({ sandbox: { stepMs: 100 }, poller: { TEST_POLL_INTERVAL_MS: '200' } });
    partnerDocument = (await request(h.api.url).get('/v1/openapi.json').expect(200))
      .body as Document;
    adminDocument = (
      await request(h.api.url).get('/admin/openapi.json').set('Authorization', ADMIN).expect(200)
    ).body as Document;
    work = await mkdtemp(join(tmpdir(), 'openapi-'));
    // The typed client resolves openapi-fetch and the Node types from the project.
    await symlink(join(ROOT, 'node_modules'), join(work, 'node_modules'), 'dir');
  }, 120_000);

  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
    await h?.close();
  });

  it('splits the partner routes from the operator routes, the latter behind the admin token', async () => {
    const partnerPaths = Object.keys(partnerDocument.paths);
    expect(partnerPaths.filter((p) => !/^\/v1\//.test(p)).sort()).toEqual(['/health', '/ready']);
    expect(partnerPaths).toEqual(
      expect.arrayContaining([
        '/v1/quotes',
        '/v1/swaps',
        '/v1/swaps/{id}',
        '/v1/test_helpers/swaps/{id}/deposit',
        '/v1/test_helpers/addresses',
      ]),
    );
    const adminPaths = Object.keys(adminDocument.paths);
    expect(adminPaths.filter((p) => !p.startsWith('/admin/'))).toEqual([]);
    expect(adminPaths).toEqual(
      expect.arrayContaining(['/admin/organizations', '/admin/organizations/{id}/credentials']),
    );
    const refused = await request(h.api.url).get('/admin/openapi.json').expect(401);
    expect(refused.body.error.code).toBe('unauthenticated');
    await request(h.api.url)
      .get('/admin/openapi.json')
      .set('Authorization', 'Bearer wrong')
      .expect(401);
  });

  it('describes every operation, its security and each error it can answer', () => {
    for (const document of [partnerDocument, adminDocument]) {
      expect(document.servers?.length).toBeGreaterThan(0);
      expect(document.info.license?.name).toBeTruthy();
      for (const tag of document.tags ?? []) {
        expect({ tag: tag.name, described: Boolean(tag.description) }).toEqual({
          tag: tag.name,
          described: true,
        });
      }
      for (const [where, op] of operations(document)) {
        expect({ where, summary: !!op.summary, description: !!op.description }).toEqual({
          where,
          summary: true,
          description: true,
        });
        expect({ where, security: Array.isArray(op.security) }).toEqual({ where, security: true });
        for (const [status, response] of Object.entries(op.responses)) {
          expect({ where, status, described: !!response.description }).toEqual({
            where,
            status,
            described: true,
          });
          // `/ready` answers 503 with its readiness report, not the envelope.
          if (!/^[45]\d\d$/.test(status) || (where === 'GET /ready' && status === '503')) {
            continue;
          }
          const codes = codesOf(response);
          // Each code is in the code table under this status, and the description names it.
          expect({ where, status, named: codes.length > 0 }).toEqual({
            where,
            status,
            named: true,
          });
          for (const code of codes) {
            const statuses = Object.entries(ERROR_TABLE)
              .filter(([internal, row]) => (row.wireCode ?? internal) === code)
              .map(([, row]) => String(row.status));
            expect({ where, code, statuses }).toEqual({
              where,
              code,
              statuses: expect.arrayContaining([status]),
            });
            expect(response.description).toContain(`\`${code}\``);
          }
        }
      }
    }
    const ops = Object.fromEntries(operations(partnerDocument));
    expect(ops['GET /health'].security).toEqual([]);
    expect(ops['GET /v1/public/quote'].security).toEqual([]);
    expect(ops['POST /v1/swaps'].security).toEqual([{ credential: [] }]);
    expect(codesOf(ops['POST /v1/swaps'].responses['409'])).toEqual(
      expect.arrayContaining(['idempotency_key_mismatch', 'idempotency_key_in_use']),
    );
    expect(codesOf(ops['POST /v1/quotes'].responses['503'])).toContain(
      'provider_credential_pending',
    );
    for (const [where, op] of operations(partnerDocument)) {
      const forbidden = codesOf(op.responses['403'] ?? { description: '' });
      expect({ where, testModeOnly: forbidden.includes('test_mode_only') }).toEqual({
        where,
        testModeOnly: where.includes(' /v1/test_helpers/'),
      });
    }
    const description = JSON.stringify(partnerDocument);
    expect(description).toMatch(/pk_test_/);
    expect(description).toMatch(/pk_live_/);
    expect(Object.keys(partnerDocument.paths['/v1/swaps'].post.responses)).toEqual(
      expect.arrayContaining([
        '201',
        '400',
        '401',
        '403',
        '404',
        '409',
        '422',
        '429',
        '502',
        '503',
      ]),
    );
  });

  it('declares and describes every tag it uses, in both documents', () => {
    for (const document of [partnerDocument, adminDocument]) {
      const declared = new Map((document.tags ?? []).map((t) => [t.name, t.description ?? '']));
      const operationsAndWebhooks = [
        ...operations(document),
        ...Object.values(document.webhooks ?? {}).flatMap((item) => Object.entries(item)),
      ];
      const used = new Set(operationsAndWebhooks.flatMap(([, op]) => op.tags ?? []));
      for (const tag of used) {
        expect({ tag, description: declared.get(tag) }).toEqual({
          tag,
          description: expect.stringMatching(/\w/) as unknown,
        });
      }
    }
    expect(partnerDocument.tags?.map((t) => t.name)).toEqual(
      expect.arrayContaining(['events', 'webhook endpoints', 'webhooks']),
    );
  });

  it('states request bodies exactly as the validators check them', () => {
    const schemas = partnerDocument.components.schemas;
    /**
     * A schema's rules without its words (not a property that happens to be named
     * `description`); `format: uri` is words too: the service checks far more of a URL.
     */
    const rulesOf = (schema: unknown): unknown =>
      JSON.parse(
        JSON.stringify(schema, (key: string, value: unknown) =>
          (['description', 'example', 'default'].includes(key) && typeof value !== 'object') ||
          (key === 'format' && value === 'uri')
            ? undefined
            : value,
        ),
      );
    for (const dto of REQUEST_BODIES) {
      expect({ dto: dto.name, served: rulesOf(schemas[dto.name]) }).toEqual({
        dto: dto.name,
        served: rulesOf(strictBodySchema(dto, {})),
      });
    }
    const create = partnerDocument.paths['/v1/swaps'].post;
    expect(create.parameters?.find((p) => p.name === 'Idempotency-Key')?.schema).toMatchObject({
      type: 'string',
      format: 'uuid',
    });
    expect(schemas.CreateSwapDto.properties).not.toHaveProperty('extraId');
    expect(schemas.CreateSwapDto.properties.amountFrom).toMatchObject({
      pattern: expect.any(String) as unknown,
    });
  });

  it('gives a fuzzer or a generated client what it needs to create each resource', () => {
    const schemas = partnerDocument.components.schemas as Record<
      string,
      { required?: string[]; properties: Record<string, Record<string, unknown>> }
    >;
    // Every required field of a create can be filled from the document alone.
    const bodies = ['CreateSwapDto', 'CreateQuoteDto', 'CreateWebhookEndpointDto'];
    const blank = bodies.flatMap((name) =>
      (schemas[name].required ?? [])
        .filter((field) => {
          const property = schemas[name].properties[field];
          return !['example', 'default', 'enum'].some((key) => key in property);
        })
        .map((field) => `${name}.${field}`),
    );
    expect(blank).toEqual([]);
    expect(schemas.CreateWebhookEndpointDto.properties.url).toMatchObject({ format: 'uri' });
    expect(schemas.UpdateWebhookEndpointDto.properties.url).toMatchObject({ format: 'uri' });
    expect(schemas.CreateSwapDto.properties.refundAddress).toHaveProperty('example');
    // Patterns every regex engine compiles: no surrogate ranges (Rust's and RE2's refuse them).
    const patterns = JSON.stringify(partnerDocument).match(/"pattern":"(?:[^"\\]|\\.)*"/g) ?? [];
    expect(patterns.length).toBeGreaterThan(5);
    expect(patterns.filter((pattern) => /\\\\uD[89A-F]/i.test(pattern))).toEqual([]);
  });

  it("names each operation's error codes, declares response headers, links and webhooks", () => {
    const schemas = partnerDocument.components.schemas;
    expect(schemas.SwapsCreateErrorCode.enum).toEqual(
      expect.arrayContaining(['idempotency_key_in_use', 'rate_limited', 'internal']),
    );
    expect(schemas.TestHelpersDepositErrorCode.enum).toContain('conflict');
    const created = partnerDocument.paths['/v1/swaps'].post.responses['201'];
    expect(Object.keys(created.headers ?? {})).toEqual(
      expect.arrayContaining([
        'X-Request-Id',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'RateLimit-Policy',
        'Idempotent-Replayed',
      ]),
    );
    expect(
      Object.keys(partnerDocument.paths['/v1/swaps'].post.responses['429'].headers ?? {}),
    ).toContain('Retry-After');
    expect(created.links?.GetSwap).toEqual(
      expect.objectContaining({
        operationId: 'Swaps_get',
        parameters: { id: '$response.body#/swap/id' },
      }),
    );
    expect(Object.keys(partnerDocument.webhooks ?? {}).sort()).toEqual([
      'endpoint.ping',
      'swap.created',
      'swap.status_changed',
    ]);
    const ping = partnerDocument.webhooks?.['endpoint.ping'].post;
    expect(ping?.parameters?.map((p) => p.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    expect(schemas.EndpointPingEvent.properties.data).toMatchObject({
      required: ['webhookEndpointId'],
    });
  });

  // Two compilers (openapi-typescript, then tsc over the generated types) and a swap driven to
  // finished: CPU-bound seconds each, many more on a loaded machine.
  it('a client typed from the partner document compiles strict and runs test mode to finished', async () => {
    const owner = await h.newPartner();
    const tester = await issueCredential(h.api.app, owner, 'test');
    const dir = join(work, 'client');
    await mkdir(dir);
    await writeFile(join(dir, 'partner.json'), JSON.stringify(partnerDocument));
    await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    await writeFile(join(dir, 'client.ts'), TYPED_CLIENT);
    // Request bodies keep their defaulted fields optional, as the API treats them.
    await nodeBin(
      'openapi-typescript/bin/cli.js',
      ['partner.json', '-o', 'schema.d.ts', '--default-non-nullable', 'false'],
      dir,
    );
    const compiled = await nodeBin('typescript/bin/tsc', ['-p', 'tsconfig.json'], dir).catch(
      (error: Error & { stdout?: string }) => ({
        stdout: `tsc failed:\n${error.stdout ?? error.message}`,
      }),
    );
    expect(compiled.stdout).toBe('');
    const { stdout } = await run(process.execPath, ['out/client.js'], {
      cwd: dir,
      env: {
        ...process.env,
        API_URL: h.api.url,
        CREDENTIAL: `${tester.publicKey}:${tester.secret}`,
      },
    });
    const outcome = JSON.parse(stdout) as { status: string; livemode: boolean; statuses: string[] };
    expect(outcome).toMatchObject({ status: 'finished', livemode: false });
  }, 120_000);

  const browserTest = existsSync(CHROMIUM) ? it : it.skip;
  if (!existsSync(CHROMIUM)) {
    process.stderr.write(
      `Skipping the /docs browser test: ${CHROMIUM} is absent (apt-get install chromium).\n`,
    );
  }

  browserTest(
    '/docs renders the partner document offline, within its CSP',
    async () => {
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
      try {
        const page = await browser.newPage();
        const problems: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error') {
            problems.push(message.text());
          }
        });
        page.on('pageerror', (error) => problems.push(error.message));
        // Anything the page asks of another origin is a CDN or tracker the docs must not need.
        const elsewhere: string[] = [];
        page.on('request', (req) => {
          if (!req.url().startsWith(h.api.url) && !req.url().startsWith('data:')) {
            elsewhere.push(req.url());
          }
        });
        const answer = await page.goto(`${h.api.url}/docs`);
        expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'");
        const swaps = page.locator('#operations-tag-swaps');
        await swaps.waitFor({ timeout: 15_000 });
        const paths = await page.locator('.opblock-summary-path').allTextContents();
        const summaries = await page.locator('.opblock-summary-description').allTextContents();
        expect(paths.map((p) => p.replace(/\u200b/g, ''))).toEqual(
          expect.arrayContaining([
            '/v1/swaps',
            '/v1/swaps/{id}',
            '/v1/test_helpers/swaps/{id}/deposit',
          ]),
        );
        expect(summaries).toEqual(
          expect.arrayContaining(['Create a swap', 'Get a swap', 'List swaps']),
        );
        expect(paths.filter((p) => p.includes('/admin'))).toEqual([]);
        expect({ problems, elsewhere }).toEqual({ problems: [], elsewhere: [] });
      } finally {
        await browser.close();
      }
    },
    30_000,
  );

  it('both documents lint clean with Redocly recommended-strict rules', async () => {
    const results = await Promise.all(
      Object.entries({ partner: partnerDocument, admin: adminDocument }).map(
        async ([name, document]) => {
          const file = join(work, `${name}.json`);
          await writeFile(file, JSON.stringify(document));
          const { stdout } = await nodeBin(
            '@redocly/cli/bin/cli.js',
            ['lint', '--extends=recommended-strict', '--format=json', file],
            work,
            { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
          );
          const { totals, problems } = JSON.parse(stdout) as {
            totals: { errors: number; warnings: number };
            problems: { ruleId: string; message: string }[];
          };
          return { name, totals, problems: problems.map((p) => `${p.ruleId}: ${p.message}`) };
        },
      ),
    );
    expect(results).toEqual([
      {
        name: 'partner',
        totals: expect.objectContaining({ errors: 0, warnings: 0 }),
        problems: [],
      },
      { name: 'admin', totals: expect.objectContaining({ errors: 0, warnings: 0 }), problems: [] },
    ]);
  }, 30_000);
});
