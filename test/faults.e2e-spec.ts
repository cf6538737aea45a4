import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import request from 'supertest';
import { createPartnerOverHttp, TestPartner } from './factories/partners.js';
import { TEST_ADMIN_TOKEN, testApiEnv } from './support/api.js';
import { openTestDataSource, testDatabaseUrl } from './support/database.js';
import { startHarness, type Harness } from './support/harness.js';
import { spawnService, type ServiceProcess } from './support/processes.js';
import { startTestSandbox, TestSandbox } from './support/sandbox.js';
import { TcpProxy } from './support/tcp-proxy.js';
import { waitUntil } from './support/wait.js';

/** Whether `url` answers 200 yet; a refused connection is simply "not yet". */
function answers200(url: string): () => Promise<boolean> {
  return () =>
    request(url)
      .get('')
      .then(
        (res) => res.status === 200,
        () => false,
      );
}

describe('Postgres unreachable', () => {
  let proxy: TcpProxy;
  let h: Harness;
  let partner: TestPartner;

  beforeAll(async () => {
    const target = new URL(testDatabaseUrl());
    proxy = await TcpProxy.start(target.hostname, Number(target.port || 5432));
    const viaProxy = new URL(testDatabaseUrl());
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    h = await startHarness({ api: { DATABASE_URL: viaProxy.toString() } });
    partner = h.partner;
  });

  afterAll(async () => {
    await h?.close();
    await proxy?.close();
  });

  it('answers 503 envelopes while it is down and recovers without a restart', async () => {
    await request(h.api.url)
      .get('/v1/swaps')
      .set('Authorization', partner.authorization)
      .expect(200);
    proxy.cut();

    const ready = await request(h.api.url).get('/ready').expect(503);
    expect(ready.body).toEqual({ ok: false, checks: { db: 'down', redis: 'up' } });
    const health = await request(h.api.url).get('/health').expect(200);
    expect(health.body).toMatchObject({ ok: false, db: 'down' });

    const read = await request(h.api.url)
      .get('/v1/swaps')
      .set('Authorization', partner.authorization)
      .expect(503);
    expect(read.body.error).toMatchObject({ type: 'internal_error', code: 'internal' });
    expect(JSON.stringify(read.body)).not.toMatch(/ECONN|SELECT|postgres/i);
    const write = await request(h.api.url)
      .post('/v1/swaps')
      .set('Authorization', partner.authorization)
      .set('Idempotency-Key', randomUUID())
      .send({
        from: 'btc',
        to: 'eth',
        amountFrom: '0.1',
        address: '0x52908400098527886E0F7030069857D2E4169EE7',
      })
      .expect(503);
    expect(write.body.error.code).toBe('internal');

    proxy.restore();
    await waitUntil(
      'readiness after Postgres returns',
      answers200(`${h.api.url}/ready`),
      10_000,
      200,
    );
    await request(h.api.url)
      .get('/v1/swaps')
      .set('Authorization', partner.authorization)
      .expect(200);
  });
});

describe('SIGTERM on the api', () => {
  let sandbox: TestSandbox;
  let api: ServiceProcess;

  beforeAll(async () => {
    sandbox = await startTestSandbox({}, { timeoutFaultMs: 1500 });
    api = await spawnService(
      'api',
      testApiEnv({ PROVIDER_URL: sandbox.url, PROVIDER_TIMEOUT_MS: '5000' }),
    );
  }, 120_000);

  afterAll(async () => {
    await api.stop('SIGKILL');
    await sandbox.close();
  });

  it('finishes in-flight requests before it exits', async () => {
    const { authorization: partner } = await createPartnerOverHttp(api.url, TEST_ADMIN_TOKEN);
    await request(api.url)
      .get('/v1/pairs?from=btc&to=eth')
      .set('Authorization', partner)
      .expect(200);
    await sandbox.control.setFault({ method: 'getExchangeAmount', mode: 'timeout', count: 1 });
    const slow = request(api.url)
      .post('/v1/quotes')
      .set('Authorization', partner)
      .send({ from: 'btc', to: 'eth', amountFrom: '0.1' });
    const inFlight = slow.then((res) => res);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      api.child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    api.child.kill('SIGTERM');
    // A reset connection would reject here: an answer proves the request was drained.
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.body.quote.from).toBe('btc');
    // Nest re-raises the signal once closed: a clean SIGTERM exit, as Kubernetes expects.
    expect(await exited).toEqual({ code: null, signal: 'SIGTERM' });
  });
});

describe('Postgres out of connections (SQLSTATE 53300)', () => {
  const role = `swap_limited_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  let admin: DataSource;
  let h: Harness;
  let partner: TestPartner;

  beforeAll(async () => {
    admin = await openTestDataSource();
    // A role of its own, not a superuser: its connection limit is enforced; the server's is shared.
    await admin.query(`CREATE ROLE ${role} LOGIN`);
    await admin.query(`GRANT ALL ON SCHEMA public TO ${role}`);
    await admin.query(`GRANT ALL ON ALL TABLES IN SCHEMA public TO ${role}`);
    await admin.query(`GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO ${role}`);
    const url = new URL(testDatabaseUrl());
    url.username = role;
    h = await startHarness({ api: { DATABASE_URL: url.toString() } });
    partner = h.partner;
  });

  afterAll(async () => {
    await h?.close();
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1`, [
      role,
    ]);
    await admin.query(`DROP OWNED BY ${role}`);
    await admin.query(`DROP ROLE ${role}`);
    await admin.destroy();
  });

  it('answers a retryable 503 envelope, not 500, while new connections are refused', async () => {
    await request(h.api.url)
      .get('/v1/swaps')
      .set('Authorization', partner.authorization)
      .expect(200);
    const [{ open }] = await admin.query<{ open: number }[]>(
      `SELECT count(*)::int AS open FROM pg_stat_activity WHERE usename = $1`,
      [role],
    );
    // No connection beyond those the pool holds, and those kept busy: a lock on the swaps table
    // stops every list at its first read, so the burst needs new connections (53300) however
    // fast the machine answers.
    await admin.query(`ALTER ROLE ${role} CONNECTION LIMIT ${open}`);
    const lock = admin.createQueryRunner();
    await lock.startTransaction();
    await lock.query('LOCK TABLE swaps IN ACCESS EXCLUSIVE MODE');
    let answered = 0;
    const burst = Promise.all(
      Array.from({ length: 24 }, () =>
        request(h.api.url)
          .get('/v1/swaps?limit=100')
          .set('Authorization', partner.authorization)
          .then((res) => {
            answered += 1;
            return res;
          }),
      ),
    );
    // Answers that come while the lock holds: none can have read a swap.
    try {
      await waitUntil('answers while the pool is held', () => Promise.resolve(answered > 0));
    } finally {
      await lock.commitTransaction();
      await lock.release();
    }
    const answers = await burst;
    const statuses = answers.map((res) => res.status);
    expect(statuses).not.toContain(500);
    const refused = answers.filter((res) => res.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const res of refused) {
      expect(res.body.error).toMatchObject({ type: 'internal_error', code: 'internal' });
      expect(res.headers['retry-after']).toBe('1');
      expect(JSON.stringify(res.body)).not.toMatch(/53300|too many|role|postgres/i);
    }
    await admin.query(`ALTER ROLE ${role} CONNECTION LIMIT -1`);
    await request(h.api.url)
      .get('/v1/swaps')
      .set('Authorization', partner.authorization)
      .expect(200);
  });
});
