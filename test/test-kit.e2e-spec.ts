import pg from 'pg';
import { adminDatabaseUrl, testDatabaseUrl } from './support/database.js';

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
