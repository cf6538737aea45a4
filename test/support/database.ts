import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#app/persistence';

/** The Postgres and Redis the development and CI machines run (README, "Two commands"). */
export function adminDatabaseUrl(): string {
  return process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

export function testRedisUrl(): string {
  return process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
}

/**
 * This test file's own database: a copy of the run's migrated template, made by the test
 * environment before the file's modules load (test/database-environment.js).
 */
export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    throw new Error(
      'TEST_DATABASE_URL is not set: run the tests through jest; only *.e2e-spec.ts files get a database',
    );
  }
  return url;
}

/**
 * Jest loads this module afresh for each test file, so each file gets keys of its own under the
 * run's prefix: counters a suite spends on purpose (sign-in failures, per-IP windows) never reach
 * the next one. Every api and process a file starts shares the file's prefix.
 */
const SUITE_KEY = randomBytes(4).toString('hex');

export function testRedisPrefix(): string {
  return `${process.env.TEST_REDIS_PREFIX ?? 'test:'}${SUITE_KEY}:`;
}

/**
 * Deletes every key of this test file, as if its Redis had lost them, and answers how many went.
 * Never `FLUSHALL`: the run's other files share the server, and a flush wipes their counters
 * mid-test (a sign-in throttle forgetting the failures it had counted).
 */
export async function flushTestRedis(): Promise<number> {
  const redis = new Redis(testRedisUrl());
  try {
    let deleted = 0;
    const batches = redis.scanStream({ match: `${testRedisPrefix()}*`, count: 500 });
    for await (const keys of batches as AsyncIterable<string[]>) {
      if (keys.length > 0) {
        deleted += await redis.unlink(...keys);
      }
    }
    return deleted;
  } finally {
    redis.disconnect();
  }
}

/** A direct connection for assertions on stored rows. */
export async function openTestDataSource(url = testDatabaseUrl()): Promise<DataSource> {
  return new DataSource(dataSourceOptions(url, 2)).initialize();
}
