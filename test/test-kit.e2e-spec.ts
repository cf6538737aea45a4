import pg from 'pg';
import { adminDatabaseUrl, testDatabaseUrl } from './support/database.js';
import { startHarness, type Harness } from './support/harness.js';

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('the test kit: a database per test file', () => {
  it("runs this file on a migrated copy of the run's template, which refuses connections", async () => {
    const [mine] = await query<{ name: string; migrations: number }>(
      testDatabaseUrl(),
      'SELECT current_database() AS name, (SELECT count(*)::int FROM migrations) AS migrations',
    );
    const template = process.env.TEST_TEMPLATE_DATABASE!;
    expect(mine.name).toBe(process.env.TEST_DATABASE_NAME);
    expect(mine.name.startsWith(`${template}_f`)).toBe(true);
    expect(mine.migrations).toBeGreaterThan(0);

    const [{ datallowconn }] = await query<{ datallowconn: boolean }>(
      adminDatabaseUrl(),
      `SELECT datallowconn FROM pg_database WHERE datname = '${template}'`,
    );
    expect(datallowconn).toBe(false);
  });
});

describe('the test kit: startHarness', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ dashboard: 'owner', providers: 'both' });
  }, 120_000);

  afterAll(async () => {
    await h?.close();
  });

  it("signs in a dashboard owner of the partner's organization, whose new key works on /v1", async () => {
    await h.dashboard.get('/partner/api-keys');
    const created = await h.dashboard.post('/partner/api-keys', { name: 'Production server' });
    expect(created.status).toBe(200);
    expect(created.text).toContain('Your new key');
    const [key] = /pk_live_[0-9a-f]{32}/.exec(created.text) ?? [];
    const [secret] = /sk_live_[0-9a-f]{48}/.exec(created.text) ?? [];
    const partner = { ...h.partner, authorization: `Bearer ${key}:${secret}` };
    await h.get('/v1/swaps', partner).expect(200);
  });

  it('routes to ChangeNOW too when asked: quotes answer while Changelly fails every call', async () => {
    await h.sandbox.control.setFault({
      provider: 'changelly',
      method: '*',
      mode: 'http_500',
      count: 100,
    });
    await h.post('/v1/quotes', { from: 'btc', to: 'eth', amountFrom: '0.1' }).expect(200);
  });

  it('names the option a part needs when the harness was started without it', () => {
    expect(() => h.poller).toThrow('the harness was started without { poller: true }');
  });
});
