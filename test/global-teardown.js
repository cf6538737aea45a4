import { Redis } from 'ioredis';
import pg from 'pg';
import { adminDatabaseUrl } from './global-setup.js';

/** Drops the run's template and every file's copy a file could not drop itself. */
export default async function globalTeardown() {
  const template = process.env.TEST_TEMPLATE_DATABASE;
  if (template) {
    const client = new pg.Client({ connectionString: adminDatabaseUrl() });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT datname FROM pg_database WHERE datname = $1 OR starts_with(datname, $1 || '_f')`,
        [template],
      );
      for (const { datname } of rows) {
        await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      }
    } finally {
      await client.end();
    }
  }
  const prefix = process.env.TEST_REDIS_PREFIX;
  if (prefix) {
    const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', {
      maxRetriesPerRequest: 1,
    });
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) {
      await redis.del(...keys);
    }
    redis.disconnect();
  }
}
