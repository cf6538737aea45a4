// Plain ESM: Jest loads global setup outside its module mapper, so this uses the built migrations,
// after building them if any source is newer than `dist/` (`npm test` also builds first).
import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import pg from 'pg';
import { buildIfStale } from './build-if-stale.js';

export function adminDatabaseUrl() {
  return process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

/**
 * One migrated template database and one Redis key prefix per test run, so parallel runs never
 * collide. Each e2e file runs on a copy of the template (test/database-environment.js); nothing
 * connects to the template itself once it is migrated, as `CREATE DATABASE … TEMPLATE` requires.
 */
export default async function globalSetup() {
  process.stdout.write(`\nTests run on Node ${process.version}\n`);
  await buildIfStale();
  const { runMigrations } = await import('../dist/libs/persistence/index.js');
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const template = `swap_test_${runId}`;
  const client = new pg.Client({ connectionString: adminDatabaseUrl() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${template}`);
    const url = new URL(adminDatabaseUrl());
    url.pathname = `/${template}`;
    process.env.TEST_TEMPLATE_DATABASE = template;
    process.env.TEST_REDIS_PREFIX = `test:${runId}:`;
    process.env.LOG_LEVEL ??= 'silent';
    Logger.overrideLogger(false);
    await runMigrations(url.toString());
    await client.query(`ALTER DATABASE ${template} ALLOW_CONNECTIONS false`);
  } finally {
    await client.end();
  }
}
