import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { pino } from 'pino';
import { loadPollerConfig } from '#app/config';
import { EventsRepository, type FeedCursor } from '#app/events';
import { runMigrations, type SqlRunner } from '#app/persistence';
import { ChangellyAdapter } from '#app/provider';
import { startPoller } from '../apps/poller/poller.bootstrap.js';
import type { SandboxStats } from '../apps/sandbox/call.stats.js';
import type { SandboxServer } from '../apps/sandbox/sandbox.bootstrap.js';
import {
  API_MAIN,
  newProviderKeys,
  sleep,
  startApp,
  startBenchSandbox,
  type AppProcess,
} from './apps.js';
import { adminQuery, deleteKeys } from './bench.environment.js';
import { approveOrganization, Browser, organizationWithOwner } from './dashboard.bench.js';
import { median } from './load.js';
import { createTransactions, seedSwaps as seedActiveSwaps } from './poller.bench.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

export const GROWTH_DEFAULTS = {
  /** Swaps stored when the routes are first measured, then when they are measured again. */
  sizes: [10_000, 1_000_000] as const,
  /** Active swaps the poller refreshes, one after the other, beside the stored ones. */
  active: [1_000, 15_000] as const,
  /** Production's interval: each cycle must finish well inside it. */
  pollIntervalMs: 30_000,
};
/** One organization holds a tenth of the swaps, the other 99 share the rest. */
const OTHER_ORGANIZATIONS = 99;
const EVENTS_PER_SWAP = 4;
/** Rows written per statement while seeding: each chunk is one transaction of its own. */
const SEED_CHUNK = 100_000;
const CREDENTIALS = 300;
/** Each route is read one request at a time: its latency is then the server's time. */
const ROUNDS = 5;
const WARMUP_MS = 500;
const MEASURE_MS = 4_000;
const CYCLES_PER_SIZE = 2;
const TIMEOUT_MS = 180_000;

/** Latencies of one route over the rounds of one size. */
export interface RouteFigures {
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
}

export interface GrowthRoute {
  name: string;
  small: RouteFigures;
  large: RouteFigures;
}

export interface PollerCycleFigures {
  active: number;
  cycle: number;
  seconds: number;
  statements: number;
  /** Statements by what they touch: the cycle's row, swaps, and the rest. */
  bookkeeping: number;
  providerCalls: number;
}

/** What `EXPLAIN (ANALYZE, BUFFERS)` showed of one statement. */
export interface PlanFigures {
  /** The plan's nodes, the root first (`Index Scan using events_feed_type_idx`). */
  nodes: string[];
  rowsRead: number;
  removedByFilter: number;
  sharedHit: number;
  sharedRead: number;
  executionMs: number;
}

export interface GrowthMeasurement {
  sizes: readonly [number, number];
  largeOrganization: readonly [number, number];
  seedSeconds: readonly [number, number];
  routes: GrowthRoute[];
  /** The large organization's last page against its first, at the large size. */
  lastPage: { offset: number; first: RouteFigures; last: RouteFigures };
  exportSeconds: readonly [number, number];
  /** The feed's `type` filter as the api sends it, at each size. */
  typeFilterPlans: readonly [PlanFigures, PlanFigures];
  pollIntervalMs: number;
  cycles: PollerCycleFigures[];
  burst: { changes: number; seconds: number; statements: number; cycles: number };
  load: { before: number; after: number };
}

/** What each generated swap `n` is (1 the newest, a swap every 30 s back in time). */
const SOURCE = `
  SELECT n,
         substr(md5('growth-' || n), 1, 16) AS id,
         CASE WHEN n % 10 = 0 THEN $1::uuid
              ELSE ($2::uuid[])[1 + (n / 10) % ${OTHER_ORGANIZATIONS}] END AS organization_id,
         (ARRAY['finished','finished','finished','finished','failed','refunded','expired',
                'overdue'])[1 + n % 8] AS status,
         now() - n * interval '30 seconds' AS created_at
    FROM generate_series($3::int, $4::int) AS n`;

/** The chunk's swaps, as the service stores them (every column the migrations define). */
const INSERT_SWAPS = `
  INSERT INTO swaps (provider, id, organization_id, livemode, provider_transaction_id, status, mode,
    from_ticker, to_ticker, amount_from, amount_expected_to, amount_actual_from,
    amount_actual_to, network_fee, actual_network_fee, rate, amount_anomaly_pct, payin_address,
    payout_address, payin_hash, payout_hash, money_received_at, money_sent_at,
    partner_reference_id, created_at, updated_at, last_seen_at)
  SELECT 'changelly', g.id, g.organization_id, true, 'growth-tx-' || g.n, g.status,
         CASE WHEN g.n % 7 = 0 THEN 'fixed' ELSE 'float' END,
         (ARRAY['btc','eth','ltc','trx','sol'])[1 + g.n % 5],
         (ARRAY['eth','btc','usdtrx','btc','eth'])[1 + g.n % 5],
         0.1, 1.5,
         CASE WHEN g.status IN ('finished','refunded') THEN 0.1 END,
         CASE WHEN g.status = 'finished' THEN 1.49 END,
         0.001, CASE WHEN g.status = 'finished' THEN 0.001 END, 15,
         CASE WHEN g.status IN ('finished','refunded') THEN 0 END,
         'bc1q' || md5('in' || g.n), '0x' || substr(md5('out' || g.n), 1, 40),
         CASE WHEN g.status IN ('finished','refunded') THEN md5('payin-hash' || g.n) END,
         CASE WHEN g.status = 'finished' THEN md5('payout-hash' || g.n) END,
         CASE WHEN g.status IN ('finished','refunded') THEN g.created_at + interval '5 minutes' END,
         CASE WHEN g.status = 'finished' THEN g.created_at + interval '15 minutes' END,
         CASE WHEN g.n % 3 = 0 THEN 'order-' || g.n END,
         g.created_at, g.created_at + interval '15 minutes', g.created_at + interval '15 minutes'
    FROM (${SOURCE}) g`;

/**
 * The chunk's events (`swap.created`, then three status changes, each with the swap as the
 * feed shows it) and one delivered webhook per event to each endpoint of its organization.
 */
const INSERT_EVENTS = `
  WITH stored AS (
    INSERT INTO events (id, organization_id, livemode, type, swap_id, data, created_at)
    SELECT 'evt_' || substr(md5('growth-event-' || g.n || '-' || k), 1, 24), g.organization_id,
           true, CASE WHEN k = 1 THEN 'swap.created' ELSE 'swap.status_changed' END, g.id,
           json_build_object(
             'swap', json_build_object(
               'id', g.id, 'providerSwapId', g.id,
               'status', (ARRAY['waiting','confirming','exchanging', g.status])[k],
               'mode', 'float', 'livemode', true, 'from', 'btc', 'to', 'eth',
               'amountFrom', '0.1', 'amountExpectedFrom', '0.1', 'amountExpectedTo', '1.5',
               'amountActualFrom', NULL, 'amountActualTo', NULL, 'networkFee', '0.001',
               'actualNetworkFee', NULL, 'rate', '15',
               'payinAddress', 'bc1q' || md5('in' || g.n),
               'payoutAddress', '0x' || substr(md5('out' || g.n), 1, 40),
               'refundAddress', NULL, 'payinHash', NULL, 'payoutHash', NULL,
               'moneyReceivedAt', NULL, 'moneySentAt', NULL, 'amountAnomalyPct', NULL,
               'partnerReferenceId', CASE WHEN g.n % 3 = 0 THEN 'order-' || g.n END,
               'payTill', NULL,
               'createdAt', to_char(g.created_at AT TIME ZONE 'UTC',
                                    'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
             'previousStatus', (ARRAY[NULL, 'waiting', 'confirming', 'exchanging'])[k]),
           g.created_at + (k - 1) * interval '5 minutes'
      FROM (${SOURCE}) g, generate_series(1, ${EVENTS_PER_SWAP}) AS k
    RETURNING id, organization_id, created_at
  )
  INSERT INTO webhook_deliveries (endpoint_id, event_id, status, attempts, next_attempt_at,
    created_at, finished_at)
  SELECT w.id, e.id, 'delivered', 1, e.created_at, e.created_at, e.created_at + interval '1 second'
    FROM stored e JOIN webhook_endpoints w ON w.organization_id = e.organization_id`;

/** One request of a route: its path and headers, from the rotation the measurement gives. */
type Probe = (i: number) => { path: string; headers: Record<string, string> };

interface Route {
  name: string;
  probe: Probe;
}

let clientAddress = 0;
/** A client address of its own for every request, as behind an ingress. */
function nextAddress(): string {
  clientAddress += 1;
  return `10.${(clientAddress >> 16) & 255}.${(clientAddress >> 8) & 255}.${clientAddress & 255}`;
}

/** The `p`-quantile of sorted `values` (nearest rank). */
function quantile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
}

/** One route read on one api. */
interface Read {
  url: string;
  route: Route;
}

/**
 * The reads in turn, one request at a time (request 1 of each, then request 2 of each, …) for
 * `ms` after a warm-up, each timed on the client: every read samples the same moments, so a
 * stall of the machine lands on each alike.
 */
async function timeTogether(reads: Read[], ms: number): Promise<RouteFigures[]> {
  const run = async (duration: number): Promise<RouteFigures[]> => {
    const latencies = reads.map(() => [] as number[]);
    const non2xx = reads.map(() => 0);
    const end = performance.now() + duration;
    for (let i = 0; performance.now() < end; i += 1) {
      for (const [r, { url, route }] of reads.entries()) {
        const { path, headers } = route.probe(i);
        const started = performance.now();
        const res = await fetch(`${url}${path}`, {
          headers: { ...headers, 'x-forwarded-for': nextAddress() },
        });
        await res.arrayBuffer();
        latencies[r].push(performance.now() - started);
        if (res.status < 200 || res.status > 299) {
          non2xx[r] += 1;
        }
      }
    }
    return latencies.map((l, r) => {
      l.sort((x, y) => x - y);
      return {
        p50Ms: quantile(l, 0.5),
        p99Ms: quantile(l, 0.99),
        requests: l.length,
        non2xx: non2xx[r],
      };
    });
  };
  await run(WARMUP_MS);
  return run(ms);
}

/** One api and the routes read on it. */
interface Target {
  url: string;
  routes: Route[];
}

/**
 * Each route read on every target together (`timeTogether`), a round of every route after
 * another, which target goes first in each pair swapped from round to round. Answers each
 * target's figures per route, medians of the rounds.
 */
async function measureRoutes(targets: Target[]): Promise<RouteFigures[][]> {
  const rounds = targets.map((t) => t.routes.map(() => [] as RouteFigures[]));
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = targets.map((_, t) => t);
    if (round % 2 === 1) {
      order.reverse();
    }
    for (const [i] of targets[0].routes.entries()) {
      const figures = await timeTogether(
        order.map((t) => ({ url: targets[t].url, route: targets[t].routes[i] })),
        MEASURE_MS,
      );
      for (const [k, t] of order.entries()) {
        rounds[t][i].push(figures[k]);
      }
    }
  }
  return rounds.map((byRoute) =>
    byRoute.map((r) => ({
      p50Ms: median(r.map((f) => f.p50Ms)),
      p99Ms: median(r.map((f) => f.p99Ms)),
      requests: r.reduce((n, f) => n + f.requests, 0),
      non2xx: r.reduce((n, f) => n + f.non2xx, 0),
    })),
  );
}

/**
 * Counts the statements this process sends to Postgres (every `pg` client's `query`), leaving
 * out the bench's own connections, with the time each was sent.
 */
class StatementLog {
  readonly sent: { at: number; text: string }[] = [];
  private readonly original = Object.getOwnPropertyDescriptor(pg.Client.prototype, 'query');

  constructor(own: WeakSet<pg.Client>) {
    const log = this.sent;
    const original = this.original?.value as (...a: unknown[]) => unknown;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      if (!own.has(this)) {
        const [first] = args;
        const text =
          typeof first === 'string' ? first : String((first as { text?: string }).text ?? '');
        log.push({ at: Date.now(), text });
      }
      return original.apply(this, args);
    } as typeof pg.Client.prototype.query;
  }

  between(from: number, to: number): { total: number; bookkeeping: number } {
    const within = this.sent.filter((s) => s.at >= from && s.at <= to);
    return {
      total: within.length,
      // A page's write-back also counts its page done: bookkeeping is what does nothing else.
      bookkeeping: within.filter((s) => /poll_cycles/.test(s.text) && !/swaps/.test(s.text)).length,
    };
  }

  stop(): void {
    if (this.original) Object.defineProperty(pg.Client.prototype, 'query', this.original);
  }
}

/** Seeds swaps `from`…`to` (and their events and deliveries), a chunk per transaction. */
async function seed(
  pool: pg.Pool,
  large: string,
  others: string[],
  from: number,
  to: number,
): Promise<void> {
  for (let start = from; start <= to; start += SEED_CHUNK) {
    const values = [large, others, start, Math.min(to, start + SEED_CHUNK - 1)];
    await pool.query(INSERT_SWAPS, values);
    await pool.query(INSERT_EVENTS, values);
  }
  // As autovacuum leaves tables that stopped growing: statistics and a visibility map.
  await pool.query('VACUUM ANALYZE swaps, events, webhook_deliveries');
  // The seeding's dirty pages written out now, not while the routes are timed.
  await pool.query('CHECKPOINT');
}

/**
 * The routes the outside engineer measured, read as the large organization: its swaps by id,
 * pages (first, at a fixed depth by offset and by cursor, by reference), a swap's events, the
 * event feed (after a cursor, by type), and the dashboard's Swaps and Events pages.
 */
function routesOf(
  credentials: string[],
  cookie: string,
  ids: string[],
  references: string[],
  depth: { offset: number; anchor: string },
  eventCursors: { feed: string; type: string },
): Route[] {
  const partner =
    (path: (i: number) => string): Probe =>
    (i) => ({
      path: path(i),
      headers: { authorization: credentials[i % credentials.length] },
    });
  const page =
    (path: string): Probe =>
    () => ({ path, headers: { cookie } });
  return [
    { name: 'GET /v1/swaps/{id}', probe: partner((i) => `/v1/swaps/${ids[i % ids.length]}`) },
    { name: 'GET /v1/swaps (first page)', probe: partner(() => '/v1/swaps?limit=50') },
    {
      name: `GET /v1/swaps offset=${depth.offset}`,
      probe: partner(() => `/v1/swaps?limit=50&offset=${depth.offset}`),
    },
    {
      name: `GET /v1/swaps startingAfter (depth ${depth.offset})`,
      probe: partner(() => `/v1/swaps?limit=50&startingAfter=${depth.anchor}`),
    },
    {
      name: 'GET /v1/swaps?partnerReferenceId=',
      probe: partner((i) => `/v1/swaps?partnerReferenceId=${references[i % references.length]}`),
    },
    {
      name: 'GET /v1/swaps/{id}/events',
      probe: partner((i) => `/v1/swaps/${ids[i % ids.length]}/events`),
    },
    {
      name: 'GET /v1/events after a cursor',
      probe: partner(() => `/v1/events?limit=50&after=${eventCursors.feed}`),
    },
    {
      name: 'GET /v1/events?type=swap.created',
      probe: partner(() => `/v1/events?limit=50&type=swap.created&after=${eventCursors.type}`),
    },
    { name: 'Dashboard Swaps page', probe: page('/partner/swaps') },
    { name: 'Dashboard Swaps, status failed', probe: page('/partner/swaps?status=failed') },
    {
      name: 'Dashboard Swaps, search by reference',
      probe: (i) => ({
        path: `/partner/swaps?q=${references[i % references.length]}`,
        headers: { cookie },
      }),
    },
    { name: 'Dashboard Events, swap.created', probe: page('/partner/events?type=swap.created') },
  ];
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/**
 * The statement the api's feed sends for `limit=50&type=swap.created&after=<cursor>` (built by the
 * repository itself, so the bench plans what the route runs), under `EXPLAIN (ANALYZE, BUFFERS)`.
 */
async function typeFilterPlan(
  pool: pg.Pool,
  organizationId: string,
  cursorId: string,
): Promise<PlanFigures> {
  const {
    rows: [after],
  } = await pool.query<FeedCursor>(
    'SELECT xid::text AS xid, seq::text AS seq FROM events WHERE id = $1',
    [cursorId],
  );
  const sent: { text: string; values: unknown[] }[] = [];
  const recorder: SqlRunner = {
    query: <T>(text: string, values: unknown[] = []): Promise<T> => {
      sent.push({ text, values });
      return Promise.resolve([] as T);
    },
  };
  // The feed only queries: a recorder stands in for the data source it is built with.
  await new EventsRepository(recorder as unknown as DataSource).feed(
    { organizationId, livemode: true },
    { after, limit: 50, type: 'swap.created' },
  );
  const {
    rows: [{ 'QUERY PLAN': plans }],
  } = await pool.query<{ 'QUERY PLAN': { Plan: PlanNode; 'Execution Time': number }[] }>(
    `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sent[0].text}`,
    sent[0].values,
  );
  const nodes = nodesOf(plans[0].Plan);
  const scans = nodes.filter((n) => n['Relation Name'] === 'events');
  return {
    nodes: nodes.map(
      (n) => `${n['Node Type']}${n['Index Name'] ? ` using ${n['Index Name']}` : ''}`,
    ),
    rowsRead: scans.reduce((sum, n) => sum + n['Actual Rows'] * n['Actual Loops'], 0),
    removedByFilter: scans.reduce((sum, n) => sum + (n['Rows Removed by Filter'] ?? 0), 0),
    sharedHit: plans[0].Plan['Shared Hit Blocks'],
    sharedRead: plans[0].Plan['Shared Read Blocks'],
    executionMs: plans[0]['Execution Time'],
  };
}

/** Seconds to download the large organization's whole CSV export. */
async function exportSeconds(apiUrl: string, cookie: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${apiUrl}/partner/swaps/export`, {
    headers: { cookie, 'x-forwarded-for': nextAddress() },
  });
  await res.arrayBuffer();
  if (res.status !== 200) {
    throw new Error(`export answered ${res.status}`);
  }
  return (performance.now() - started) / 1000;
}

/** Waits for `probe` to answer something, asking every 100 ms, for at most `TIMEOUT_MS`. */
async function until<T>(what: string, probe: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const found = await probe();
    if (found !== null) {
      return found;
    }
    if (Date.now() > deadline) {
      throw new Error(`growth bench: ${what} did not happen in time`);
    }
    await sleep(100);
  }
}

/** One database of its own with an api on it: the large organization, its owner and credentials. */
interface Site {
  database: string;
  databaseUrl: string;
  redisPrefix: string;
  pool: pg.Pool;
  api: AppProcess;
  large: string;
  others: string[];
  credentials: string[];
  cookie: string;
}

/** A site as far as it got: enough to close whatever of it was opened. */
type OpenedSite = Partial<Site> & Pick<Site, 'database' | 'redisPrefix'>;

/**
 * A database migrated and an api on it (its own Redis prefix), the large organization approved
 * with its owner signed in and `CREDENTIALS` credentials, the other organizations and the webhook
 * endpoints; no swaps yet. `opened` receives the site before anything can fail, to be closed.
 */
async function openSite(
  name: string,
  sandbox: SandboxServer,
  providerKeys: { privateKeyPem: string; publicKeyPem: string },
  own: WeakSet<pg.Client>,
  opened: (site: OpenedSite) => void,
): Promise<Site> {
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const database = `swap_bench_growth_${name}_${runId}`;
  const redisPrefix = `bench:${runId}:`;
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${database}`;
  const site: OpenedSite = { database, redisPrefix };
  opened(site);
  await adminQuery(`CREATE DATABASE ${database}`);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  pool.on('connect', (client) => own.add(client));
  site.pool = pool;
  await runMigrations(databaseUrl);
  const adminToken = randomBytes(24).toString('hex');
  const api = await startApp(API_MAIN, 'PORT', {
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    REDIS_KEY_PREFIX: redisPrefix,
    PROVIDER_URL: sandbox.url,
    PROVIDER_PRIVATE_KEY: providerKeys.privateKeyPem,
    ADMIN_TOKEN: adminToken,
    CREDENTIAL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    TRUST_PROXY_HOPS: '1',
    APP_ENV: 'bench',
    LOG_LEVEL: 'info',
  });
  site.api = api;
  const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };

  // The large organization's owner joins by invitation; it is approved and takes credentials.
  const owner = {
    email: `owner-${runId}@bench.example`,
    password: `Bench-${randomBytes(12).toString('hex')}`,
  };
  const large = await organizationWithOwner(api.url, admin, 'Growth org', owner);
  await approveOrganization(api.url, admin, large);
  const credentials: string[] = [];
  for (let i = 0; i < CREDENTIALS; i += 1) {
    // Each from an address of its own, as the reads below: a fast machine issues them
    // quicker than the per-IP limit of `/admin` allows one address.
    const issued = await fetch(`${api.url}/admin/organizations/${large}/credentials`, {
      method: 'POST',
      headers: { ...admin, 'x-forwarded-for': nextAddress() },
      body: '{}',
    });
    if (issued.status !== 201) {
      throw new Error(`credential ${i} answered ${issued.status}`);
    }
    const { credential } = (await issued.json()) as {
      credential: { publicKey: string; secret: string };
    };
    credentials.push(`Bearer ${credential.publicKey}:${credential.secret}`);
  }
  const reader = new Browser(api.url);
  const signedIn = await reader.post('/partner/login', owner);
  if (signedIn.status !== 303) {
    throw new Error(`sign-in answered ${signedIn.status}`);
  }
  const { rows: otherRows } = await pool.query<{ id: string }>(
    `INSERT INTO organizations (name, fee_percent, status, provider_activated)
     SELECT 'Growth org ' || i, 1, 'active', true FROM generate_series(1, $1) AS i
     RETURNING id`,
    [OTHER_ORGANIZATIONS],
  );
  const others = otherRows.map((row) => row.id);
  // A webhook endpoint for the large organization and one in eight of the others.
  await pool.query(
    `INSERT INTO webhook_endpoints (id, organization_id, livemode, url, events, secret_ciphertext)
     SELECT 'we_' || substr(md5(o::text), 1, 24), o, true, 'https://hooks.example/swaps',
            ARRAY['swap.created','swap.status_changed'], 'sealed'
       FROM unnest($1::uuid[]) WITH ORDINALITY AS t(o, i) WHERE i = 1 OR i % 8 = 0`,
    [[large, ...others]],
  );
  return {
    database,
    databaseUrl,
    redisPrefix,
    pool,
    api,
    large,
    others,
    credentials,
    cookie: reader.cookieHeader(),
  };
}

/** The site's api stopped, its database dropped and its Redis keys deleted. */
async function closeSite(site: OpenedSite) {
  await site.api?.stop();
  await site.pool?.end();
  await adminQuery(`DROP DATABASE IF EXISTS ${site.database} WITH (FORCE)`);
  await deleteKeys(site.redisPrefix);
}

/** Seeds a site to `size` swaps and answers the seconds it took. */
async function seedSite(site: Site, size: number): Promise<number> {
  const started = performance.now();
  await seed(site.pool, site.large, site.others, 1, size);
  return (performance.now() - started) / 1000;
}

async function largeOrganizationCount(site: Site): Promise<number> {
  const {
    rows: [{ count }],
  } = await site.pool.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM swaps WHERE organization_id = $1',
    [site.large],
  );
  return count;
}

/**
 * The growth bench: two databases of their own, each with its api, seeded by the same SQL to
 * `sizes[0]` and to `sizes[1]` swaps (a tenth of them one organization's, four events each, a
 * delivered webhook per event of the organizations with an endpoint). Swap `n` is the same swap
 * in both, so the same reads find the same rows; each route is read at both sizes in every
 * round, the order swapped from round to round, so what the machine does meanwhile weighs on
 * both alike. Then a poller over the large database refreshing `active[0]`, then `active[1]`
 * active swaps of a sandbox beside them, and a burst of status changes of all of those.
 */
export async function measureGrowth(
  sizes: readonly [number, number],
  active: readonly [number, number],
  write: (line: string) => void,
): Promise<GrowthMeasurement> {
  const own = new WeakSet<pg.Client>();
  const opened: OpenedSite[] = [];
  let sandbox: SandboxServer | undefined;
  try {
    const providerKeys = newProviderKeys();
    sandbox = await startBenchSandbox(providerKeys.publicKeyPem, 3_600_000);
    const small = await openSite('small', sandbox, providerKeys, own, (s) => opened.push(s));
    const large = await openSite('large', sandbox, providerKeys, own, (s) => opened.push(s));
    const seedSeconds: number[] = [];
    for (const [i, site] of [small, large].entries()) {
      write(`growth: seeding ${sizes[i]} swaps…`);
      seedSeconds.push(await seedSite(site, sizes[i]));
    }
    const largeCount = [await largeOrganizationCount(small), await largeOrganizationCount(large)];

    // Read at both sizes: swaps and events of the small database, which the large one holds too.
    const { rows: sample } = await small.pool.query<{ id: string; ref: string | null }>(
      `SELECT id, partner_reference_id AS ref FROM swaps WHERE organization_id = $1
        ORDER BY created_at DESC, id DESC LIMIT 1000`,
      [small.large],
    );
    const {
      rows: [cursor],
    } = await small.pool.query<{ id: string }>(
      `SELECT id FROM events WHERE organization_id = $1 ORDER BY xid, seq OFFSET $2 LIMIT 1`,
      [small.large, Math.floor((largeCount[0] * EVENTS_PER_SWAP) / 2)],
    );
    // The type filter's own cursor: half way through the type's events, so a full page of the
    // same events follows it at both sizes. After the feed's cursor the small size held no
    // swap.created (a chunk's rows go in in the planner's order), so the filter read an empty
    // page at 10,000 and a full one at 1,000,000.
    const {
      rows: [typeCursor],
    } = await small.pool.query<{ id: string }>(
      `SELECT id FROM events WHERE organization_id = $1 AND type = 'swap.created'
        ORDER BY xid, seq OFFSET $2 LIMIT 1`,
      [small.large, Math.floor(largeCount[0] / 2)],
    );
    // The depth both sizes share: the large organization's last page at the small size.
    const offset = largeCount[0] - 50;
    const routesAt = (site: Site): Route[] =>
      routesOf(
        site.credentials,
        site.cookie,
        sample.slice(0, 300).map((row) => row.id),
        sample.flatMap((row) => (row.ref ? [row.ref] : [])).slice(0, 200),
        { offset, anchor: sample[offset - 1].id },
        { feed: cursor.id, type: typeCursor.id },
      );
    const routes = routesAt(small);
    const largeRoutes = routesAt(large);

    const loadBefore = loadavg()[0];
    write(`growth: measuring ${routes.length} routes at ${sizes[0]} and ${sizes[1]} swaps…`);
    const measured = await measureRoutes([
      { url: small.api.url, routes },
      { url: large.api.url, routes: largeRoutes },
    ]);
    const typeFilterPlans = [
      await typeFilterPlan(small.pool, small.large, typeCursor.id),
      await typeFilterPlan(large.pool, large.large, typeCursor.id),
    ];
    const exported = [
      await exportSeconds(small.api.url, small.cookie),
      await exportSeconds(large.api.url, large.cookie),
    ];
    const lastOffset = largeCount[1] - 50;
    const last: Route = {
      name: 'last page',
      probe: (n) => ({
        path: `/v1/swaps?limit=50&offset=${lastOffset}`,
        headers: { authorization: large.credentials[n % large.credentials.length] },
      }),
    };
    const [[first], [end]] = await measureRoutes([
      { url: large.api.url, routes: [largeRoutes[1]] },
      { url: large.api.url, routes: [last] },
    ]);
    const loadAfter = loadavg()[0];

    write('growth: poller…');
    const poller = await measurePoller(large.pool, own, sandbox, {
      active,
      providerKeys,
      redisPrefix: large.redisPrefix,
      databaseUrl: large.databaseUrl,
    });
    return {
      sizes,
      largeOrganization: [largeCount[0], largeCount[1]],
      seedSeconds: [seedSeconds[0], seedSeconds[1]],
      routes: routes.map((route, i) => ({
        name: route.name,
        small: measured[0][i],
        large: measured[1][i],
      })),
      lastPage: { offset: lastOffset, first, last: end },
      exportSeconds: [exported[0], exported[1]],
      typeFilterPlans: [typeFilterPlans[0], typeFilterPlans[1]],
      pollIntervalMs: GROWTH_DEFAULTS.pollIntervalMs,
      cycles: poller.cycles,
      burst: poller.burst,
      load: { before: loadBefore, after: loadAfter },
    };
  } finally {
    for (const site of opened) {
      await closeSite(site);
    }
    await sandbox?.close();
  }
}

/**
 * One poller (in this process, production's interval) over the stored swaps and `active` swaps
 * of the sandbox: statements and seconds of each complete cycle, then every active swap moved to
 * `confirming` at once and the time until all of them read so.
 */
async function measurePoller(
  pool: pg.Pool,
  own: WeakSet<pg.Client>,
  sandbox: SandboxServer,
  {
    active: sizes,
    providerKeys,
    redisPrefix,
    databaseUrl,
  }: {
    active: readonly [number, number];
    providerKeys: { privateKeyPem: string; publicKeyPem: string };
    redisPrefix: string;
    databaseUrl: string;
  },
): Promise<{ cycles: PollerCycleFigures[]; burst: GrowthMeasurement['burst'] }> {
  const config = loadPollerConfig({
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    REDIS_KEY_PREFIX: redisPrefix,
    PROVIDER_URL: sandbox.url,
    PROVIDER_PRIVATE_KEY: providerKeys.privateKeyPem,
    CREDENTIAL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ADMIN_TOKEN: randomBytes(24).toString('hex'),
    POLL_INTERVAL_MS: String(GROWTH_DEFAULTS.pollIntervalMs),
    // No endpoint of the poller's organization: the delivery loop only looks, once a minute.
    WEBHOOK_TICK_MS: '60000',
    POLLER_HEALTH_PORT: '0',
    APP_ENV: 'bench',
    LOG_LEVEL: 'silent',
  });
  if (!config.provider) {
    throw new Error('the bench polls Changelly: PROVIDERS must name it');
  }
  const adapter = new ChangellyAdapter(config.provider);
  const {
    rows: [{ id: organizationId }],
  } = await pool.query<{ id: string }>(
    `INSERT INTO organizations (name, fee_percent, status, provider_activated)
     VALUES ('Growth poller org', 0, 'active', true) RETURNING id`,
  );
  /** The sandbox's `getTransactions` calls in the wall-clock seconds from `from` to `to`. */
  const callsBetween = async (from: number, to: number): Promise<number> => {
    const response = await fetch(`${sandbox.baseUrl}/sandbox/stats`);
    const { stats } = (await response.json()) as { stats: SandboxStats };
    return stats.perSecond
      .filter((b) => b.second >= Math.floor(from / 1000) && b.second <= Math.floor(to / 1000))
      .reduce((sum, b) => sum + (b.methods.getTransactions ?? 0), 0);
  };
  /** The live lane's cycle once its listing is over and it confirmed `active` swaps. */
  const completed = async (
    after: number,
    active: number,
  ): Promise<{ number: number; startedAt: number } | null> => {
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
    return seen.rows[0].count === active
      ? { number: Number(cycle.number), startedAt: cycle.started_at.getTime() }
      : null;
  };

  const transactions = await createTransactions(adapter, sizes[0]);
  await seedActiveSwaps(pool, organizationId, transactions);
  const log = new StatementLog(own);
  const poller = await startPoller(config, pino({ level: 'silent' }), { shutdownHooks: false });
  const cycles: PollerCycleFigures[] = [];
  try {
    let last = 0;
    for (const active of sizes) {
      const created = await createTransactions(adapter, active - transactions.length);
      await seedActiveSwaps(pool, organizationId, created);
      transactions.push(...created);
      for (let n = 0; n < CYCLES_PER_SIZE; n += 1) {
        const cycle = await until(`a cycle of ${active} active swaps`, () =>
          completed(last, active),
        );
        const finishedAt = Date.now();
        const statements = log.between(cycle.startedAt, finishedAt);
        cycles.push({
          active,
          cycle: cycle.number,
          seconds: (finishedAt - cycle.startedAt) / 1000,
          statements: statements.total,
          bookkeeping: statements.bookkeeping,
          providerCalls: await callsBetween(cycle.startedAt, finishedAt),
        });
        last = cycle.number;
      }
    }

    // A burst: every active swap changes status at once.
    const burstStarted = Date.now();
    for (let i = 0; i < transactions.length; i += 50) {
      await Promise.all(
        transactions.slice(i, i + 50).map(async (id) => {
          const res = await fetch(`${sandbox.baseUrl}/sandbox/transactions/${id}/status`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ status: 'confirming' }),
          });
          await res.arrayBuffer();
        }),
      );
    }
    const cycleAtBurst = last;
    let drainedCycle = last;
    await until('the burst to drain', async () => {
      const { rows } = await pool.query<{ count: number; cycle: string }>(
        `SELECT (SELECT count(*)::int FROM swaps
                  WHERE organization_id = $1 AND status = 'confirming') AS count,
                (SELECT number FROM poll_cycles WHERE lane = 'live') AS cycle`,
        [organizationId],
      );
      drainedCycle = Number(rows[0].cycle);
      return rows[0].count === transactions.length ? true : null;
    });
    const burstEnded = Date.now();
    return {
      cycles,
      burst: {
        changes: transactions.length,
        seconds: (burstEnded - burstStarted) / 1000,
        statements: log.between(burstStarted, burstEnded).total,
        cycles: drainedCycle - cycleAtBurst,
      },
    };
  } finally {
    await poller.close();
    log.stop();
  }
}

function ratio(large: number, small: number): number {
  return large / Math.max(small, 0.001);
}

/** The results section `bench/results.md` keeps between its markers. */
export function growthSection(m: GrowthMeasurement): string[] {
  const [small, large] = m.sizes;
  const fmt = (n: number): string => n.toLocaleString('en-US');
  const ms = (n: number): string => n.toFixed(2);
  const rows = m.routes.map((r) => {
    const p50 = ratio(r.large.p50Ms, r.small.p50Ms);
    const p99 = ratio(r.large.p99Ms, r.small.p99Ms);
    return (
      `| ${r.name} | ${ms(r.small.p50Ms)} / ${ms(r.small.p99Ms)} | ` +
      `${ms(r.large.p50Ms)} / ${ms(r.large.p99Ms)} | ${p50.toFixed(2)} | ${p99.toFixed(2)} | ` +
      `${r.small.non2xx + r.large.non2xx} |`
    );
  });
  const worst = Math.max(
    ...m.routes.flatMap((r) => [
      ratio(r.large.p50Ms, r.small.p50Ms),
      ratio(r.large.p99Ms, r.small.p99Ms),
    ]),
  );
  const lastRatio = ratio(m.lastPage.last.p99Ms, m.lastPage.first.p99Ms);
  const verdict = (met: boolean): string => (met ? 'met' : 'MISSED');
  const within = m.cycles.every((c) => c.seconds * 1000 < m.pollIntervalMs);
  const plan = (size: number, p: PlanFigures): string =>
    `| ${fmt(size)} | ${p.nodes.join(' → ')} | ${p.rowsRead} | ${p.removedByFilter} | ` +
    `${p.sharedHit} / ${p.sharedRead} | ${p.executionMs.toFixed(2)} |`;
  return [
    `## Growth: ${fmt(small)} swaps against ${fmt(large)}`,
    '',
    '`npm run bench -- growth`: two databases of their own, each with its api, seeded by the same',
    `SQL as the migrations define it: ${fmt(small)} swaps in one, ${fmt(large)} in the other (a swap`,
    'every 30 s back in time, swap `n` the same in both; 100 organizations, one holding a tenth:',
    `${fmt(m.largeOrganization[0])} and ${fmt(m.largeOrganization[1])}), ${EVENTS_PER_SWAP} events per swap with the swap in`,
    'each, and a delivered webhook per event of the organizations with an endpoint (the large one',
    `and one in eight of the others); \`VACUUM ANALYZE\` and a \`CHECKPOINT\` after seeding, which`,
    `took ${m.seedSeconds[0].toFixed(0)} s and ${m.seedSeconds[1].toFixed(0)} s. Each api runs as its own process`,
    '(`node dist/apps/api/main.js`, logs at info); each route is read as the large organization,',
    "one request at a time on loopback (timed by the client, so each figure is the server's time",
    'plus a loopback round trip), at both sizes together: a request at one size, then the same',
    `request at the other, by turns, for ${MEASURE_MS / 1000} s after ${WARMUP_MS / 1000} s of warm-up, so a stall of the machine`,
    `lands on both alike; ${ROUNDS} rounds of every route, which size goes first swapped from round to`,
    "round; figures are the rounds' medians.",
    `Load average ${m.load.before.toFixed(1)} when the measurements began, ${m.load.after.toFixed(1)} when they ended.`,
    '',
    `| route | ${fmt(small)}: p50 / p99 ms | ${fmt(large)}: p50 / p99 ms | p50 ratio | p99 ratio | non-2xx |`,
    '|---|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `The large organization's last page at ${fmt(large)} (\`offset=${fmt(m.lastPage.offset)}\`): p50 ` +
      `${ms(m.lastPage.last.p50Ms)} ms, p99 ${ms(m.lastPage.last.p99Ms)} ms, against its first ` +
      `page's ${ms(m.lastPage.first.p50Ms)} / ${ms(m.lastPage.first.p99Ms)} ms read by turns with it ` +
      `(p99 ${lastRatio.toFixed(2)} ×). CSV export of the large organization: ` +
      `${fmt(m.largeOrganization[0])} rows in ${m.exportSeconds[0].toFixed(2)} s, ` +
      `${fmt(m.largeOrganization[1])} in ${m.exportSeconds[1].toFixed(2)} s.`,
    '',
    "The `type` filter's statement, as the feed sends it for the route above, under",
    '`EXPLAIN (ANALYZE, BUFFERS)` right after the route was measured at each size:',
    '',
    '| swaps | plan | rows read | removed by filter | shared blocks hit / read | ms |',
    '|---:|---|---:|---:|---:|---:|',
    plan(small, m.typeFilterPlans[0]),
    plan(large, m.typeFilterPlans[1]),
    '',
    `One poller (\`POLL_INTERVAL_MS\` ${m.pollIntervalMs}, the upstream cap of 10 calls/s) over the`,
    `${fmt(large)} stored swaps and active swaps of a sandbox; each complete cycle (listing over,`,
    'every active swap confirmed), the first after the active swaps were added cold. Statements',
    'are every statement the poller sent from the start of the cycle to its end; bookkeeping is',
    'those on `poll_cycles` alone (the write-back of a page also counts the page done):',
    '',
    '| active swaps | cycle | seconds | statements | of which bookkeeping | provider calls |',
    '|---:|---:|---:|---:|---:|---:|',
    ...m.cycles.map(
      (c) =>
        `| ${fmt(c.active)} | ${c.cycle} | ${c.seconds.toFixed(1)} | ${c.statements} | ` +
        `${c.bookkeeping} | ${c.providerCalls} |`,
    ),
    '',
    `A burst: all ${fmt(m.burst.changes)} active swaps moved to \`confirming\` at once in the`,
    `sandbox; every one read \`confirming\` ${m.burst.seconds.toFixed(1)} s later, ${m.burst.cycles}`,
    `cycle(s) on, with ${fmt(m.burst.statements)} statements.`,
    '',
    `- Every route's p50 and p99 at ${fmt(large)} ≤ 1.2 × at ${fmt(small)} (worst ${worst.toFixed(2)}) — **${verdict(worst <= 1.2)}**`,
    `- The last page of ${fmt(m.largeOrganization[1])} swaps: p99 ≤ 3 × the first page's (${lastRatio.toFixed(2)} ×) — **${verdict(lastRatio <= 3)}**`,
    `- Each cycle within its interval (${(m.pollIntervalMs / 1000).toFixed(0)} s) — **${verdict(within)}**`,
    `- ${fmt(m.burst.changes)} status changes drained within two intervals ` +
      `(${m.burst.seconds.toFixed(1)} s) — **${verdict(m.burst.seconds * 1000 <= 2 * m.pollIntervalMs)}**`,
  ];
}
