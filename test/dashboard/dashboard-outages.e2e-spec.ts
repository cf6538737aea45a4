import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { jest } from '@jest/globals';
import request from 'supertest';
import { DashboardSessionsService, SIGN_IN_FAILURES_PER_ACCOUNT } from '#app/accounts';
import { createRootLogger } from '#app/logging';
import { testDatabaseUrl, testRedisUrl } from '../support/database.js';
import { createDashboardUser, DashboardClient } from '../support/dashboard.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitUntil } from '../support/wait.js';
import { type Harness, startHarness } from '../support/harness.js';
import { createOrganization } from '../factories/partners.js';

const SIGN_IN_FAILED = 'Email or password is incorrect.';
/** What a stack trace, a driver's error or SQL looks like: none of it may reach a page. */
const LEAKS = /ECONN|SELECT|postgres|redis|stack|at .*\.(?:ts|js)|TypeError|timeout/i;

/** A 503 page a person can read, with `Retry-After`, and nothing of the failure's details. */
function expectOutagePage(res: request.Response): void {
  expect(res.status).toBe(503);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.text).toContain('role="alert"');
  expect(res.text).not.toMatch(LEAKS);
}

describe('Dashboard while Redis is unreachable', () => {
  let proxy: TcpProxy;
  let harness: Harness;
  let organizationId: string;

  beforeAll(async () => {
    const redis = new URL(testRedisUrl());
    proxy = await TcpProxy.start(redis.hostname, Number(redis.port || 6379));
    redis.host = `127.0.0.1:${proxy.port}`;
    harness = await startHarness({ smtp: true, api: { REDIS_URL: redis.toString() } });
    organizationId = await createOrganization(harness.api.app, { name: 'Redis Outage Ltd' });
  });

  afterAll(async () => {
    await harness.close();
    await proxy.close();
  });

  it('signs in, refuses wrong passwords and throttles them per process, never a 500', async () => {
    const { email, password } = await createDashboardUser(harness.api, organizationId, 'viewer');
    const before = new DashboardClient(harness.api.url);
    await before.signIn(email, password);
    const signedIn = await createDashboardUser(harness.api, organizationId, 'owner');
    const stays = new DashboardClient(harness.api.url);
    await stays.signIn(signedIn.email, signedIn.password);

    proxy.cut();

    const client = new DashboardClient(harness.api.url);
    expect((await client.get('/partner/login')).status).toBe(200);
    const right = await client.post('/partner/login', { email, password });
    expect(right.status).toBe(303);
    expect(right.headers.location).toBe('/partner');
    expect((await client.get('/partner')).status).toBe(200);
    expect((await stays.get('/partner/api-keys')).status).toBe(200);

    const guesser = new DashboardClient(harness.api.url);
    await guesser.get('/partner/login');
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ACCOUNT; i += 1) {
      const wrong = await guesser.post('/partner/login', { email, password: `${password}x` });
      statuses.push(wrong.status);
      expect(wrong.text).toContain(SIGN_IN_FAILED);
    }
    const blocked = await guesser.post('/partner/login', { email, password });
    expect(statuses).toEqual(Array(SIGN_IN_FAILURES_PER_ACCOUNT).fill(401));
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(60);
    expect(guesser.sessionId()).toBeUndefined();

    proxy.restore();
  });
});

describe('Dashboard while Postgres is unreachable', () => {
  let proxy: TcpProxy;
  let harness: Harness;
  let organizationId: string;

  beforeAll(async () => {
    const target = new URL(testDatabaseUrl());
    proxy = await TcpProxy.start(target.hostname, Number(target.port || 5432));
    const viaProxy = new URL(testDatabaseUrl());
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    harness = await startHarness({
      smtp: true,
      api: {
        DATABASE_URL: viaProxy.toString(),
        DATABASE_TIMEOUT_MS: '1000',
      },
    });
    organizationId = await createOrganization(harness.api.app, { name: 'Postgres Outage Ltd' });
  });

  afterAll(async () => {
    await harness.close();
    await proxy.close();
  });

  /** Back to normal after Postgres returns, without a restart. */
  async function recovers(client: DashboardClient): Promise<void> {
    proxy.restore();
    await waitUntil(
      'the overview after Postgres returns',
      async () => (await client.get('/partner')).status === 200,
      15_000,
      200,
    );
  }

  it('answers 503 pages with Retry-After while connections are refused', async () => {
    const { email, password } = await createDashboardUser(harness.api, organizationId, 'owner');
    const client = new DashboardClient(harness.api.url);
    await client.signIn(email, password);
    const newcomer = new DashboardClient(harness.api.url);
    await newcomer.get('/partner/login');

    proxy.cut();

    expectOutagePage(await client.get('/partner'));
    expectOutagePage(await client.get('/partner/api-keys'));
    expectOutagePage(await newcomer.post('/partner/login', { email, password }));
    expect(newcomer.sessionId()).toBeUndefined();

    await recovers(client);
  });

  it('answers 503 pages with Retry-After while Postgres hangs', async () => {
    const { email, password } = await createDashboardUser(harness.api, organizationId, 'viewer');
    const client = new DashboardClient(harness.api.url);
    await client.signIn(email, password);

    proxy.hang();

    expectOutagePage(await client.get('/partner'));

    await recovers(client);
  }, 60_000);
});

/** The api's JSON log lines, parsed as they are written. */
class CapturedLines extends Writable {
  readonly lines: Record<string, unknown>[] = [];

  override _write(chunk: Buffer | string, _encoding: string, done: () => void): void {
    for (const line of chunk.toString().split('\n').filter(Boolean)) {
      this.lines.push(JSON.parse(line) as Record<string, unknown>);
    }
    done();
  }
}

/** One api for the suites that need no outage: its log lines captured for the error suite. */
describe('Dashboard', () => {
  let harness: Harness;
  let log: CapturedLines;

  beforeAll(async () => {
    log = new CapturedLines();
    harness = await startHarness({ logger: createRootLogger('info', log) });
  });

  afterAll(async () => {
    await harness.close();
  });

  describe('on an unexpected error', () => {
    afterAll(() => {
      jest.restoreAllMocks();
    });

    it('renders a 500 page without details and logs the stack', async () => {
      const marker = `bug-${randomBytes(4).toString('hex')}`;
      // A bug no input can provoke on purpose: the session lookup throws what nothing maps.
      jest
        .spyOn(harness.api.app.get(DashboardSessionsService), 'resolve')
        .mockRejectedValueOnce(new TypeError(marker));

      const res = await request(harness.api.url)
        .get('/partner')
        .set('Cookie', 'partner_session=whatever');

      expect(res.status).toBe(500);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['retry-after']).toBeUndefined();
      expect(res.text).toContain('role="alert"');
      expect(res.text).not.toContain(marker);
      expect(res.text).not.toMatch(LEAKS);
      const logged = log.lines.filter((line) => JSON.stringify(line).includes(marker));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ level: 50, path: '/partner' });
      expect(JSON.stringify(logged[0])).toMatch(/TypeError: bug-[0-9a-f]{8}\\n\s+at /);
    });
  });

  describe('addresses', () => {
    it('sends /partner/ where /partner goes, keeping the query', async () => {
      const slash = await request(harness.api.url).get('/partner/?since=7d');
      expect(slash.status).toBe(301);
      expect(slash.headers.location).toBe('/partner?since=7d');
      const page = await request(harness.api.url).get(slash.headers.location);
      expect(page.status).toBe(303);
      expect(page.headers.location).toBe('/partner/login?next=%2Fpartner%3Fsince%3D7d');
      const nested = await request(harness.api.url).get('/partner/login/');
      expect(nested.status).toBe(301);
      expect(nested.headers.location).toBe('/partner/login');
      // Only reads are sent on: a form posted to another spelling is still unknown.
      expect((await request(harness.api.url).post('/partner/login/')).status).toBe(404);
      // The landing page is its own spelling.
      expect((await request(harness.api.url).get('/')).status).toBe(200);
    });
  });
});
