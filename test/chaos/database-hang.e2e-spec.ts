import request from 'supertest';
import { DataSource } from 'typeorm';
import { ConfigError, loadApiConfig, loadCliConfig, loadPollerConfig } from '#app/config';
import { ErrorCode, toAppError } from '#app/errors';
import { dataSourceOptions } from '#app/persistence';
import { testApiEnv } from '../support/api.js';
import { testDatabaseUrl } from '../support/database.js';
import { startHarness, type Harness } from '../support/harness.js';
import { TcpProxy } from '../support/tcp-proxy.js';

/** Postgres cancels a statement after DATABASE_TIMEOUT_MS; a client that hears nothing gives up 1 s later. */
const TIMEOUT_MS = 1500;
const BOUND_MS = TIMEOUT_MS + 1000;
/** Scheduling slack on a shared machine; a hang without a timeout blows far past it. */
const MARGIN_MS = 2000;

/** Rejects once `ms` have passed, so a query that never answers fails the test instead of Jest. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

async function backendPid(dataSource: DataSource): Promise<number> {
  const [row] = await dataSource.query<{ pid: number }[]>('SELECT pg_backend_pid() AS pid');
  return row.pid;
}

/** A hung database answers within a bound, and its connection is not reused. */
describe('Postgres that accepts connections but never answers', () => {
  let proxy: TcpProxy;
  let viaProxy: string;

  beforeAll(async () => {
    const target = new URL(testDatabaseUrl());
    proxy = await TcpProxy.start(target.hostname, Number(target.port || 5432));
    const url = new URL(testDatabaseUrl());
    url.host = `127.0.0.1:${proxy.port}`;
    viaProxy = url.toString();
  });

  afterEach(() => {
    proxy.restore();
  });

  afterAll(async () => {
    await proxy.close();
  });

  describe('behind the api', () => {
    let h: Harness;

    beforeAll(async () => {
      h = await startHarness({
        api: { DATABASE_URL: viaProxy, DATABASE_TIMEOUT_MS: String(TIMEOUT_MS) },
      });
    });

    afterAll(async () => {
      await h?.close();
    });

    const listSwaps = () => h.get('/v1/swaps');

    it('answers a read 503 within the bound, and the next read once it is back 200', async () => {
      // Several pooled connections, as a serving api has.
      await Promise.all(Array.from({ length: 4 }, () => listSwaps().expect(200)));
      proxy.hang();

      const started = performance.now();
      const read = await listSwaps().timeout(BOUND_MS + MARGIN_MS);
      const seconds = (performance.now() - started) / 1000;
      process.stdout.write(`seconds to answer on a hung database: ${seconds.toFixed(2)}\n`);
      expect(read.status).toBe(503);
      expect(read.body.error).toMatchObject({ type: 'internal_error', code: 'internal' });
      expect(JSON.stringify(read.body)).not.toMatch(/timeout|SELECT|postgres/i);
      expect(seconds * 1000).toBeLessThan(BOUND_MS + MARGIN_MS);

      const readyStarted = performance.now();
      const ready = await request(h.api.url)
        .get('/ready')
        .timeout(1000 + MARGIN_MS);
      expect(ready.status).toBe(503);
      expect(ready.body.checks.db).toBe('down');
      expect(performance.now() - readyStarted).toBeLessThan(1000 + MARGIN_MS);

      proxy.restore();
      await listSwaps().timeout(BOUND_MS).expect(200);
    });
  });

  describe('behind a pool of one connection', () => {
    let dataSource: DataSource;

    beforeAll(async () => {
      dataSource = await new DataSource(dataSourceOptions(viaProxy, 1, TIMEOUT_MS)).initialize();
    });

    afterAll(async () => {
      await dataSource.destroy();
    });

    it('discards the connection the client gave up on instead of handing it out again', async () => {
      const before = await backendPid(dataSource);
      proxy.hang();

      const failure = await within(dataSource.query('SELECT 1'), BOUND_MS + MARGIN_MS).catch(
        (error: unknown) => error,
      );
      expect(failure).toMatchObject({ message: 'Query read timeout' });
      expect(toAppError(failure)?.code).toBe(ErrorCode.ServiceUnavailable);

      proxy.restore();
      expect(await within(backendPid(dataSource), BOUND_MS)).not.toBe(before);
    });
  });
});

describe('Statement timeouts', () => {
  it('lets Postgres cancel a slow statement and keeps its connection', async () => {
    const dataSource = await new DataSource(
      dataSourceOptions(testDatabaseUrl(), 1, 1000),
    ).initialize();
    try {
      const before = await backendPid(dataSource);
      const failure = await within(dataSource.query('SELECT pg_sleep(5)'), 4000).catch(
        (error: unknown) => error,
      );
      expect(failure).toMatchObject({ driverError: { code: '57014' } });
      expect(toAppError(failure)?.code).toBe(ErrorCode.ServiceUnavailable);
      expect(await backendPid(dataSource)).toBe(before);
    } finally {
      await dataSource.destroy();
    }
  });

  it('leaves migrations without a statement timeout', async () => {
    const dataSource = await new DataSource(dataSourceOptions(testDatabaseUrl(), 1)).initialize();
    try {
      const [row] =
        await dataSource.query<{ statement_timeout: string }[]>('SHOW statement_timeout');
      expect(row.statement_timeout).toBe('0');
    } finally {
      await dataSource.destroy();
    }
  });

  it('sizes the bound per process and names a malformed DATABASE_TIMEOUT_MS', () => {
    const env = testApiEnv();
    expect(loadApiConfig(env).database.timeoutMs).toBe(5000);
    expect(loadPollerConfig(env).database.timeoutMs).toBe(15000);
    expect(loadCliConfig(env).database.timeoutMs).toBe(30000);
    expect(loadApiConfig(testApiEnv({ DATABASE_TIMEOUT_MS: '2500' })).database.timeoutMs).toBe(
      2500,
    );
    expect(() => loadPollerConfig(testApiEnv({ DATABASE_TIMEOUT_MS: '5s' }))).toThrow(
      new ConfigError('DATABASE_TIMEOUT_MS', 'must be an integer from 100 to 600000'),
    );
  });
});
