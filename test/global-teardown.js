import { Redis } from 'ioredis';
import pg from 'pg';
import { adminDatabaseUrl } from './global-setup.js';

export default async function globalTeardown() {
  const database = process.env.TEST_DATABASE_NAME;
  if (database) {
    const client = new pg.Client({ connectionString: adminDatabaseUrl() });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
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
