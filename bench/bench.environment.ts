import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Redis } from 'ioredis';
import pg from 'pg';
import { pino } from 'pino';
import { generateAddress } from '#app/chains';
import { loadApiConfig } from '#app/config';
import type { PipelineStep } from '#app/http';
import { OrganizationsService } from '#app/partners';
import { runMigrations } from '#app/persistence';
import { createApiApp } from '../apps/api/api.bootstrap.js';
import type { SandboxServer } from '../apps/sandbox/sandbox.bootstrap.js';
import { newProviderKeys, startBenchSandbox } from './apps.js';

const ADMIN_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = 'redis://127.0.0.1:6379';
const UPSTREAM_CONCURRENCY = 4;

/** A credential and the swap it created under its own idempotency key (for replays). */
export interface SeededCredential {
  authorization: string;
  idempotencyKey: string;
  swapId: string;
}

export interface BenchEnvironment {
  apiUrl: string;
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  /** The key pair the sandbox verifies with, for other processes of the bench (the poller). */
  providerKeys: { privateKeyPem: string; publicKeyPem: string };
  credentials: SeededCredential[];
  /** The body every seeded swap was created with, so a replay sends exactly it. */
  swapBody: Record<string, string>;
  /**
   * Another api on the same database, Redis and logging, with `without`'s steps left out (the
   * bench's step measurements); closed with the environment.
   */
  startApi(without: ReadonlySet<PipelineStep>): Promise<string>;
  close(): Promise<void>;
}

export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function deleteKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) {
        await redis.del(...keys);
      }
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * What a bench's spawned apps run on: a database (created and migrated) and a Redis key prefix of
 * their own, a sandbox in this process verifying a fresh key pair, and the environment each api
 * process of the run is started with (logs at info, one trusted proxy hop); `close` drops it all.
 */
export interface SpawnedStack {
  env: Record<string, string>;
  adminToken: string;
  close(): Promise<void>;
}

export async function startSpawnedStack(name: string): Promise<SpawnedStack> {
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const database = `swap_bench_${name}_${runId}`;
  const redisPrefix = `bench:${runId}:`;
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${database}`;
  await adminQuery(`CREATE DATABASE ${database}`);
  const keys = newProviderKeys();
  const sandbox = await startBenchSandbox(keys.publicKeyPem, 60_000);
  const close = async (): Promise<void> => {
    await sandbox.close();
    await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await deleteKeys(redisPrefix);
  };
  try {
    await runMigrations(databaseUrl);
  } catch (error: unknown) {
    await close();
    throw error;
  }
  const adminToken = randomBytes(24).toString('hex');
  return {
    adminToken,
    env: {
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      REDIS_KEY_PREFIX: redisPrefix,
      PROVIDER_URL: sandbox.url,
      PROVIDER_PRIVATE_KEY: keys.privateKeyPem,
      ADMIN_TOKEN: adminToken,
      CREDENTIAL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      TRUST_PROXY_HOPS: '1',
      APP_ENV: 'bench',
      LOG_LEVEL: 'info',
    },
    close,
  };
}

/** Runs `work` over `items`, `concurrency` at a time. */
async function inBatches<T, R>(
  items: T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += concurrency) {
    results.push(...(await Promise.all(items.slice(i, i + concurrency).map(work))));
  }
  return results;
}

/** A swap body to seed with; replays send it again exactly. */
export function newSwapBody(): Record<string, string> {
  return {
    from: 'btc',
    to: 'eth',
    amountFrom: '0.1',
    address: generateAddress('ethereum', (n) => randomBytes(n)),
  };
}

/**
 * `count` credentials (each made by `issue`, as its `Authorization` header), each of which
 * creates one swap with `swapBody` under an idempotency key of its own, kept for replays.
 * Swap creation goes through the shared upstream cap (10/s), so seeding is paced by it.
 */
export async function seedCredentialSwaps(
  apiUrl: string,
  swapBody: Record<string, string>,
  count: number,
  issue: () => Promise<string>,
): Promise<SeededCredential[]> {
  const indexes = Array.from({ length: count }, (_, i) => i);
  return inBatches(indexes, UPSTREAM_CONCURRENCY, async (i) => {
    const authorization = await issue();
    const idempotencyKey = randomUUID();
    const response = await fetch(`${apiUrl}/v1/swaps`, {
      method: 'POST',
      headers: {
        Authorization: authorization,
        'Content-Type': 'application/json',
        'Idempotency-Key': idempotencyKey,
        'X-Forwarded-For': `192.168.${i >> 8}.${i & 255}`,
      },
      body: JSON.stringify(swapBody),
    });
    const text = await response.text();
    if (response.status !== 201) {
      throw new Error(`seeding swap ${i} answered ${response.status}: ${text}`);
    }
    const { swap } = JSON.parse(text) as { swap: { id: string } };
    return { authorization, idempotencyKey, swapId: swap.id };
  });
}

/**
 * A sandbox and an api in this process against a database of their own (created, migrated and
 * dropped here) and a Redis key prefix of their own, plus one active organization with
 * `credentialCount` credentials, each of which has created one swap.
 */
export async function startBenchEnvironment(credentialCount: number): Promise<BenchEnvironment> {
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const database = `swap_bench_${runId}`;
  const redisPrefix = `bench:${runId}:`;
  await adminQuery(`CREATE DATABASE ${database}`);
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${database}`;
  let sandbox: SandboxServer | undefined;
  let api: NestExpressApplication | undefined;
  const variants: NestExpressApplication[] = [];
  const close = async (): Promise<void> => {
    await Promise.all(variants.map((variant) => variant.close()));
    await api?.close();
    await sandbox?.close();
    await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await deleteKeys(redisPrefix);
  };
  try {
    await runMigrations(databaseUrl);
    const providerKeys = newProviderKeys();
    sandbox = await startBenchSandbox(providerKeys.publicKeyPem, 60_000);
    const config = loadApiConfig({
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      REDIS_KEY_PREFIX: redisPrefix,
      PROVIDER_URL: sandbox.url,
      PROVIDER_PRIVATE_KEY: providerKeys.privateKeyPem,
      ADMIN_TOKEN: randomBytes(24).toString('hex'),
      CREDENTIAL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      // One trusted hop, as behind an ingress: the load generator gives every request its own
      // client address, so the per-IP limits count what they would count in production.
      TRUST_PROXY_HOPS: '1',
      APP_ENV: 'bench',
      LOG_LEVEL: 'info',
    });
    // Production logs every request at info; the lines go to /dev/null so the cost is counted.
    const logger = pino(
      { level: config.logLevel },
      pino.destination({ dest: '/dev/null', sync: false }),
    );
    const listening = async (without?: ReadonlySet<PipelineStep>) => {
      const app = await createApiApp(config, logger, { shutdownHooks: false, without });
      await app.listen(0, '127.0.0.1');
      const url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
      return { app, url };
    };
    const started = await listening();
    api = started.app;
    const apiUrl = started.url;

    const organizations = api.get(OrganizationsService);
    const organization = await organizations.create(
      {
        name: 'Bench Wallet',
        feePercent: '1',
        status: 'active',
        providerActivated: true,
        payoutAddress: null,
        payoutNetwork: 'trc20',
      },
      'bench',
    );
    const swapBody = newSwapBody();
    const credentials = await seedCredentialSwaps(apiUrl, swapBody, credentialCount, async () => {
      const issued = await organizations.issueCredential(organization.id, 'bench');
      return `Bearer ${issued.publicKey}:${issued.secret}`;
    });
    return {
      apiUrl,
      databaseUrl,
      redisUrl: REDIS_URL,
      redisPrefix,
      providerKeys,
      credentials,
      swapBody,
      startApi: async (without) => {
        const variant = await listening(without);
        variants.push(variant.app);
        return variant.url;
      },
      close,
    };
  } catch (error: unknown) {
    await close();
    throw error;
  }
}
