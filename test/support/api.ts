import type { AddressInfo } from 'node:net';
import type { Response } from 'supertest';
import { randomBytes } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { pino, type Logger as Pino } from 'pino';
import { ApiConfig, loadApiConfig } from '#app/config';
import { createApiApp } from '../../apps/api/api.bootstrap.js';
import { testDatabaseUrl, testRedisPrefix, testRedisUrl } from './database.js';
import { providerKeyPair } from './keys.js';

export const TEST_ADMIN_TOKEN = 'test-admin-token-7f3c9a1e5b2d8046c1e9';
/** What an operator sends, and Prometheus when it scrapes the api's or the poller's `/metrics`. */
export const ADMIN_HEADERS = { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
/** One encryption key per test process, shared by every api it starts (they share one database). */
export const TEST_ENCRYPTION_KEY = randomBytes(32).toString('base64');

export interface TestApi {
  app: NestExpressApplication;
  url: string;
  config: ApiConfig;
  close(): Promise<void>;
}

/** The environment a test api runs with; `overrides` replace single variables. */
export function testApiEnv(
  overrides: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    DATABASE_URL: testDatabaseUrl(),
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX: testRedisPrefix(),
    PROVIDER_URL: 'http://127.0.0.1:9/v2',
    PROVIDER_PRIVATE_KEY: providerKeyPair().privateKeyPem,
    PROVIDER_TIMEOUT_MS: '1500',
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    CREDENTIAL_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    APP_ENV: 'test',
    PORT: '0',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    ...overrides,
  };
}

/**
 * Starts the real api app on an ephemeral loopback port; `logger` replaces the quiet default (a
 * test that reads the api's log lines passes one writing to its own stream).
 */
export async function startTestApi(
  overrides: Record<string, string | undefined> = {},
  logger?: Pino,
): Promise<TestApi> {
  const config = loadApiConfig(testApiEnv(overrides));
  const app = await createApiApp(config, logger ?? pino({ level: config.logLevel }), {
    shutdownHooks: false,
  });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}`, config, close: () => app.close() };
}

/**
 * Sends a request as a well-behaved partner does: a 429 is retried after its `Retry-After`, up to
 * `attempts` times. For tests that check answers, not limits, on a machine whose speed or load
 * may put two of their requests in one window of a limit they do not test.
 */
export async function honouringRetryAfter(
  send: () => Promise<Response>,
  attempts = 10,
): Promise<Response> {
  for (let attempt = 1; ; attempt += 1) {
    const res = await send();
    if (res.status !== 429 || attempt === attempts) {
      return res;
    }
    const seconds = Number(res.headers['retry-after'] ?? '1');
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}
