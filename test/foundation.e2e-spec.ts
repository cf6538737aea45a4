import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import pg from 'pg';
import { Controller, Get, Module, Post, Body } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { pino } from 'pino';
import request from 'supertest';
import { DEFAULT_HTTP_SERVER } from '#app/config';
import { configureHttpApp } from '#app/http';
import { PinoNestLogger } from '#app/logging';
import { testApiEnv } from './support/api.js';
import { adminDatabaseUrl } from './support/database.js';
import { startHarness, type Harness } from './support/harness.js';

const ENVELOPE_KEYS = ['code', 'message', 'param', 'retry_after_ms', 'type', 'upstream_code'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectEnvelope(
  body: { error: Record<string, unknown> },
  type: string,
  code: string,
): void {
  expect(Object.keys(body.error).sort()).toEqual(ENVELOPE_KEYS);
  expect(body.error).toMatchObject({ type, code });
  expect(typeof body.error.message).toBe('string');
}

describe('Foundation (api over HTTP)', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  it('GET /health answers the flat Health object with the documented types', async () => {
    const res = await request(h.api.url).get('/health').expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['db', 'env', 'latency_ms', 'ok', 'version']);
    expect(res.body).toMatchObject({ ok: true, db: 'up', env: 'test', version: '1.0.0' });
    expect(typeof res.body.latency_ms).toBe('number');
  });

  it('GET /ready answers 200 with every check up', async () => {
    const res = await request(h.api.url).get('/ready').expect(200);
    expect(res.body).toEqual({ ok: true, checks: { db: 'up', redis: 'up' } });
  });

  it('answers an unknown route with a 404 envelope', async () => {
    const res = await request(h.api.url).get('/v1/nothing-here').expect(404);
    expectEnvelope(res.body, 'not_found', 'not_found');
  });

  it('answers malformed JSON with 400 invalid_json', async () => {
    const res = await request(h.api.url)
      .post('/v1/quotes')
      .set('Content-Type', 'application/json')
      .send('{"from": "btc",')
      .expect(400);
    expectEnvelope(res.body, 'validation_error', 'invalid_json');
  });

  it('answers a body over 64 KiB with 413 payload_too_large', async () => {
    const res = await request(h.api.url)
      .post('/v1/quotes')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ pad: 'x'.repeat(65 * 1024) }))
      .expect(413);
    expectEnvelope(res.body, 'validation_error', 'payload_too_large');
  });

  it('answers a POST without a JSON content type with 415', async () => {
    const res = await request(h.api.url)
      .post('/v1/quotes')
      .set('Content-Type', 'text/plain')
      .send('from=btc')
      .expect(415);
    expectEnvelope(res.body, 'validation_error', 'unsupported_media_type');
  });

  it('generates an X-Request-Id when none is sent', async () => {
    const res = await request(h.api.url).get('/health').expect(200);
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('echoes a safe incoming X-Request-Id, on errors too', async () => {
    const res = await request(h.api.url)
      .get('/nope')
      .set('X-Request-Id', 'partner-req.42_a')
      .expect(404);
    expect(res.headers['x-request-id']).toBe('partner-req.42_a');
  });

  it('replaces an unsafe incoming X-Request-Id', async () => {
    const res = await request(h.api.url)
      .get('/health')
      .set('X-Request-Id', 'bad id<script>')
      .expect(200);
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('answers requests the HTTP parser rejects with the envelope too', async () => {
    const { port } = new URL(h.api.url);
    const raw = async (payload: string): Promise<string> => {
      const socket = connect(Number(port), '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      socket.write(payload);
      await new Promise((resolve) => socket.on('close', resolve));
      return answer;
    };
    const oversized = await raw(
      `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20000)}\r\n\r\n`,
    );
    expect(oversized).toMatch(/^HTTP\/1\.1 431/);
    expect(oversized).toContain('"code":"headers_too_large"');
    const garbage = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400/);
    expect(garbage).toContain('"type":"validation_error"');
  });

  it('sends security headers and no X-Powered-By', async () => {
    const res = await request(h.api.url).get('/health').expect(200);
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('Readiness with Redis down', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ api: { REDIS_URL: 'redis://127.0.0.1:1' } });
  });

  afterAll(async () => {
    await h?.close();
  });

  it('answers /ready 503 naming redis while /health stays 200', async () => {
    const res = await request(h.api.url).get('/ready').expect(503);
    expect(res.body).toEqual({ ok: false, checks: { db: 'up', redis: 'down' } });
    await request(h.api.url).get('/health').expect(200);
  });
});

@Controller('boom')
class ExplodingController {
  @Get()
  explode(): never {
    throw new Error('relation "secret_table" does not exist: SELECT * FROM secret_table');
  }

  @Post()
  echo(@Body() body: unknown): unknown {
    return body;
  }
}

@Module({ controllers: [ExplodingController] })
class ExplodingModule {}

describe('Unexpected errors', () => {
  let app: NestExpressApplication;

  beforeAll(async () => {
    const logger = pino({ level: 'silent' });
    app = await NestFactory.create<NestExpressApplication>(ExplodingModule, {
      bodyParser: false,
      logger: new PinoNestLogger(logger),
    });
    configureHttpApp(app, { logger, timeouts: DEFAULT_HTTP_SERVER, shutdownHooks: false });
    await app.init();
  });

  afterAll(async () => {
    await app.close();
  });

  it('answers 500 internal with no stack, SQL or message details', async () => {
    const res = await request(app.getHttpServer()).get('/boom').expect(500);
    expectEnvelope(res.body, 'internal_error', 'internal');
    const text = JSON.stringify(res.body);
    expect(text).not.toMatch(/secret_table|SELECT|at .*\.ts|Error:/);
  });
});

/**
 * How long a refused start may take: loading the built api takes a second on a quiet machine and
 * many times that on a busy one (a start killed at a shorter bound prints nothing).
 */
const START_MS = 120_000;

interface EndedStart {
  /** The exit code; null when the start was killed (by the timeout) or never ran. */
  code: number | null;
  stderr: string;
}

/** Starts the built api with `overrides` to its environment and answers how it ended. */
function startApi(overrides: Record<string, string | undefined>): Promise<EndedStart> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['dist/apps/api/main.js'],
      { env: { ...testApiEnv(overrides), PATH: process.env.PATH }, timeout: START_MS },
      (error, _stdout, stderr) => {
        const code = error === null ? 0 : error.killed ? null : error.code;
        resolve({ code: typeof code === 'number' ? code : null, stderr });
      },
    );
  });
}

/** The lines a start that refused to run wrote on stderr, once it exited on its own, not with 0. */
function refusal(start: EndedStart): string[] {
  expect(start.code).toEqual(expect.any(Number));
  expect(start.code).not.toBe(0);
  return start.stderr.trim().split('\n');
}

const WEAK_ADMIN_TOKENS = [
  ['the old docker-compose default', 'change-me-admin-token'],
  ['a placeholder of 32 characters or more', 'change-me-admin-token-0123456789abcdef'],
  ['a token shorter than 32 characters', 'f3b0c44298fc1c149afbf4c8996fb92'],
];

describe('Configuration', () => {
  // The refused starts all run at once, begun before the first test: each is mostly Node loading
  // the api's modules, and one after another they took seconds apiece.
  const starts = new Map<string, Promise<EndedStart>>();

  beforeAll(() => {
    starts.set('malformed DATABASE_URL', startApi({ DATABASE_URL: 'not-a-url' }));
    starts.set('missing ADMIN_TOKEN', startApi({ ADMIN_TOKEN: undefined }));
    for (const [, token] of WEAK_ADMIN_TOKENS) {
      starts.set(token, startApi({ ADMIN_TOKEN: token }));
    }
  });

  it(
    'stops the api with one line naming a malformed DATABASE_URL',
    async () => {
      const lines = refusal(await starts.get('malformed DATABASE_URL')!);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('DATABASE_URL');
    },
    START_MS,
  );

  it(
    'stops the api with one line naming a missing ADMIN_TOKEN',
    async () => {
      expect(refusal(await starts.get('missing ADMIN_TOKEN')!)).toEqual([
        expect.stringContaining('ADMIN_TOKEN'),
      ]);
    },
    START_MS,
  );

  it.each(WEAK_ADMIN_TOKENS)(
    'refuses %s as ADMIN_TOKEN at start-up, in one line',
    async (_name, token) => {
      expect(refusal(await starts.get(token)!)).toEqual([
        expect.stringMatching(
          /^Invalid configuration: ADMIN_TOKEN (must be at least 32|is a placeholder)/,
        ),
      ]);
    },
    START_MS,
  );
});

describe('Migrations', () => {
  const database = `swap_migrate_${randomBytes(4).toString('hex')}`;
  const url = new URL(adminDatabaseUrl());
  url.pathname = `/${database}`;

  async function admin(sql: string): Promise<void> {
    const client = new pg.Client({ connectionString: adminDatabaseUrl() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  function migrate(): { status: number | null; stdout: string } {
    const result = spawnSync('npm', ['run', '--silent', 'migration:run'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: url.toString() },
      encoding: 'utf8',
      timeout: 60000,
    });
    return { status: result.status, stdout: result.stdout };
  }

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${database}`);
  });

  afterAll(async () => {
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  it('creates the schema on a fresh database, and a second run is a no-op', async () => {
    const first = migrate();
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('InitialSchema');
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    const tables = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    await client.end();
    expect(tables.rows.map((r) => r.table_name)).toEqual(
      expect.arrayContaining([
        'organizations',
        'credentials',
        'swaps',
        'idempotency_keys',
        'fixed_rates',
        'earnings_ledger',
        'payouts',
        'audit_log',
        'swap_events',
        'migrations',
      ]),
    );
    const second = migrate();
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('No migrations are pending');
  });
});
