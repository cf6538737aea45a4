import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import pg from 'pg';
import { generateAddress } from '#app/chains';
import { loadPollerConfig } from '#app/config';
import { runMigrations } from '#app/persistence';
import { ChangellyAdapter } from '#app/provider';
import { startPoller } from '../apps/poller/poller.bootstrap.js';
import { startBenchSandbox } from './apps.js';
import { adminQuery, deleteKeys } from './bench.environment.js';

export interface PollerBenchOptions {
  activeSwaps: number;
  cycles: number;
  pollIntervalMs: number;
  redisUrl: string;
  providerKeys: { privateKeyPem: string; publicKeyPem: string };
}

export interface PollerCycle {
  number: number;
  calls: number;
  refreshesPerCall: number;
  seconds: number;
}

export interface PollerMeasurement {
  activeSwaps: number;
  pollIntervalMs: number;
  cycles: PollerCycle[];
}

const CYCLE_TIMEOUT_MS = 60_000;
const CREATE_BURST = 50;

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Real sandbox transactions, created through the adapter in bursts (no upstream cap here). */
export async function createTransactions(
  adapter: ChangellyAdapter,
  count: number,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += CREATE_BURST) {
    const created = await Promise.all(
      Array.from({ length: Math.min(CREATE_BURST, count - i) }, () =>
        adapter.createTransaction({
          from: 'btc',
          to: 'eth',
          amountFrom: '0.1',
          address: generateAddress('ethereum', (n) => randomBytes(n)),
        }),
      ),
    );
    ids.push(...created.map((tx) => tx.id));
  }
  return ids;
}

/** Waiting live swaps of the organization, one per provider transaction, due to be polled. */
export async function seedSwaps(
  pool: pg.Pool,
  organizationId: string,
  providerIds: string[],
): Promise<void> {
  await pool.query(
    `INSERT INTO swaps (provider, id, organization_id, provider_transaction_id, status, mode, from_ticker,
       to_ticker, amount_from, amount_expected_to, payin_address, payout_address, next_poll_at)
     SELECT 'changelly', substr(md5(random()::text || tx), 1, 16), $1, tx, 'waiting', 'float', 'btc', 'eth',
            0.1, 2, 'payin-' || tx, 'payout-' || tx, now()
       FROM unnest($2::text[]) AS tx`,
    [organizationId, providerIds],
  );
}

/**
 * `activeSwaps` waiting swaps on a sandbox of their own and one poller, in a database of their
 * own; counts the sandbox's `getTransactions` calls of each of `cycles` complete refresh cycles
 * (every active swap confirmed, the listing over), the first one included.
 */
export async function measurePoller(options: PollerBenchOptions): Promise<PollerMeasurement> {
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const database = `swap_bench_poller_${runId}`;
  const redisPrefix = `bench:${runId}:`;
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${database}`;
  const silent = pino({ level: 'silent' });
  await adminQuery(`CREATE DATABASE ${database}`);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const sandbox = await startBenchSandbox(options.providerKeys.publicKeyPem, 3_600_000);
  let poller: Awaited<ReturnType<typeof startPoller>> | undefined;
  try {
    await runMigrations(databaseUrl);
    const config = loadPollerConfig({
      DATABASE_URL: databaseUrl,
      REDIS_URL: options.redisUrl,
      REDIS_KEY_PREFIX: redisPrefix,
      PROVIDER_URL: sandbox.url,
      PROVIDER_PRIVATE_KEY: options.providerKeys.privateKeyPem,
      // The poller opens webhook secrets with it; the bench has no endpoints, any key will do.
      CREDENTIAL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      ADMIN_TOKEN: randomBytes(24).toString('hex'),
      POLL_INTERVAL_MS: String(options.pollIntervalMs),
      POLLER_TICK_MS: '50',
      POLLER_HEALTH_PORT: '0',
      APP_ENV: 'bench',
      LOG_LEVEL: 'silent',
    });
    if (!config.provider) {
      throw new Error('the bench polls Changelly: PROVIDERS must name it');
    }
    const adapter = new ChangellyAdapter(config.provider);
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO organizations (name, fee_percent, status, provider_activated)
       VALUES ('Bench poller org', 0, 'active', true) RETURNING id`,
    );
    const organizationId = rows[0].id;
    await seedSwaps(pool, organizationId, await createTransactions(adapter, options.activeSwaps));
    const calls = async (): Promise<number> => {
      const response = await fetch(`${sandbox.baseUrl}/sandbox/stats`);
      const { stats } = (await response.json()) as { stats: { calls: Record<string, number> } };
      return stats.calls.getTransactions ?? 0;
    };
    /** The live lane's cycle once its listing is over and it confirmed every swap. */
    const completed = async (after: number): Promise<number | null> => {
      const { rows } = await pool.query<{ number: string; started_at: Date; over: boolean }>(
        `SELECT number, started_at, end_page IS NOT NULL AND pages_done >= next_page AS over
           FROM poll_cycles WHERE lane = 'live'`,
      );
      const cycle = rows[0];
      if (!cycle || Number(cycle.number) <= after || !cycle.over) {
        return null;
      }
      const seen = await pool.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM swaps
          WHERE organization_id = $1 AND last_seen_at >= $2 AND lease_owner IS NULL`,
        [organizationId, cycle.started_at],
      );
      return seen.rows[0].count === options.activeSwaps ? Number(cycle.number) : null;
    };

    poller = await startPoller(config, silent, { shutdownHooks: false });
    const cycles: PollerCycle[] = [];
    let last = 0;
    let callsBefore = await calls();
    let startedAt = Date.now();
    while (cycles.length < options.cycles) {
      const deadline = Date.now() + CYCLE_TIMEOUT_MS;
      let done: number | null = null;
      while (done === null) {
        if (Date.now() > deadline) {
          throw new Error(`poller bench: cycle after ${last} did not complete in time`);
        }
        await sleep(50);
        done = await completed(last);
      }
      const callsNow = await calls();
      const made = callsNow - callsBefore;
      cycles.push({
        number: done,
        calls: made,
        refreshesPerCall: options.activeSwaps / Math.max(1, made),
        seconds: (Date.now() - startedAt) / 1000,
      });
      last = done;
      callsBefore = callsNow;
      startedAt = Date.now();
    }
    return { activeSwaps: options.activeSwaps, pollIntervalMs: options.pollIntervalMs, cycles };
  } finally {
    await poller?.close();
    await sandbox.close();
    await pool.end();
    await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await deleteKeys(redisPrefix);
  }
}
