import { createPrivateKey, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import pg from 'pg';
import { runMigrations } from '#app/persistence';
import { ChangellyAdapter } from '#app/provider';
import { signWebhook } from '#app/webhooks';
import {
  AdminClient,
  API_MAIN,
  newProviderKeys,
  POLLER_MAIN,
  sleep,
  startApp,
  startBenchSandbox,
  type AppProcess,
} from './apps.js';
import { adminQuery, deleteKeys } from './bench.environment.js';
import { createTransactions, seedSwaps } from './poller.bench.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

/** The scenario of issue 27: 10 endpoints, 2,000 swaps changing status within a minute. */
export const WEBHOOK_DEFAULTS = {
  swaps: 2_000,
  endpoints: 10,
  windowSeconds: 60,
  pollers: 2,
};

/**
 * How the 10 endpoints are shared, each run in turn: ten partners with one endpoint each (one
 * delivery per event), and one partner with all ten (every event to each, ten times the
 * deliveries and no turns between organizations to lean on).
 */
export const WEBHOOK_PARTNERS = [10, 1];

export const WEBHOOK_TARGET_P99_MS = 2_000;

/** Deliveries still missing this long after the last status change fail the run. */
const DRAIN_TIMEOUT_MS = 180_000;
const SAMPLE_EVERY_MS = 500;
/** Status changes in flight at once towards the sandbox, so a slow answer never delays the pace. */
const FORCE_CONCURRENCY = 16;

export interface WebhooksBenchOptions {
  swaps: number;
  /** Partners (organizations); the endpoints and the swaps are shared evenly between them. */
  partners: number;
  endpoints: number;
  windowSeconds: number;
  pollers: number;
}

export interface WebhooksMeasurement {
  options: WebhooksBenchOptions;
  events: number;
  /** Deliveries the outbox enqueued: one per event and subscribed endpoint. */
  expected: number;
  /** Distinct (endpoint, event id) pairs received. */
  received: number;
  /** Requests beyond the first for one (endpoint, event id): at-least-once repeats. */
  duplicates: number;
  lost: number;
  badSignatures: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** From the first event's `createdAt` to the last first receipt. */
  deliverySeconds: number;
  /** Each poller's `webhook_deliveries_total{outcome="delivered"}` and lease losses. */
  pollers: { delivered: number; leaseLost: number }[];
  /** Pending deliveries at most, sampled every 0.5 s. */
  maxPending: number;
  load: { before: number; after: number };
}

/** Partner i's share of `n` things dealt out in turn between `partners`. */
function share(n: number, partners: number, i: number): number {
  return Math.floor(n / partners) + (i < n % partners ? 1 : 0);
}

/** Deliveries the status changes call for: each swap's event to each of its partner's endpoints. */
function expectedDeliveries(o: WebhooksBenchOptions): number {
  return Array.from(
    { length: o.partners },
    (_, i) => share(o.swaps, o.partners, i) * share(o.endpoints, o.partners, i),
  ).reduce((a, b) => a + b, 0);
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** One partner's receiver: counts each event id it gets and checks the signature. */
class Receiver {
  /** Event id → receipts, the first one's time and the event's `createdAt`. */
  readonly events = new Map<string, { count: number; latencyMs: number; receivedAt: number }>();
  badSignatures = 0;
  secret = '';
  url = '';
  private readonly server: Server = createServer((req, res) => this.receive(req, res));

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  private receive(req: IncomingMessage, res: ServerResponse): void {
    const receivedAt = Date.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const id = String(req.headers['webhook-id']);
      const timestamp = Number(req.headers['webhook-timestamp']);
      const signed = signWebhook([this.secret], id, timestamp, body)['webhook-signature'];
      if (!String(req.headers['webhook-signature']).split(' ').includes(signed)) {
        this.badSignatures += 1;
      }
      const seen = this.events.get(id);
      if (seen) {
        seen.count += 1;
      } else {
        const { createdAt } = JSON.parse(body) as { createdAt: string };
        this.events.set(id, {
          count: 1,
          latencyMs: receivedAt - Date.parse(createdAt),
          receivedAt,
        });
      }
      res.end('ok');
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A counter of the poller's `/metrics`, summed over its labels that match `labels`. */
async function counter(
  poller: AppProcess,
  adminToken: string,
  name: string,
  labels = '',
): Promise<number> {
  const res = await fetch(`${poller.url}/metrics`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  const text = await res.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .filter((line) => line.includes(labels))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

async function waitFor(what: string, timeoutMs: number, done: () => Promise<boolean>) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) {
      throw new Error(`webhooks bench: ${what} did not happen in time`);
    }
    await sleep(SAMPLE_EVERY_MS);
  }
}

/**
 * `endpoints` partners, each with one webhook endpoint on a receiver of its own in this process,
 * and `swaps` waiting swaps shared between them on a sandbox in this process; `pollers` pollers,
 * each the production entry point as a process of its own, on a database of their own. Once the
 * pollers have seen every swap, the sandbox moves each swap to `confirming`, evenly over
 * `windowSeconds`; the pollers record one `swap.status_changed` event per swap and deliver it.
 * The api runs only to make the partners and their endpoints, as partners do.
 */
export async function measureWebhooks(options: WebhooksBenchOptions): Promise<WebhooksMeasurement> {
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const database = `swap_bench_hooks_${runId}`;
  const redisPrefix = `bench:${runId}:`;
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${database}`;
  await adminQuery(`CREATE DATABASE ${database}`);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const keys = newProviderKeys();
  // A forced status stays: one change, one event per swap.
  const sandbox = await startBenchSandbox(keys.publicKeyPem, 3_600_000);
  const receivers = Array.from({ length: options.endpoints }, () => new Receiver());
  const pollers: AppProcess[] = [];
  let api: AppProcess | undefined;
  try {
    await runMigrations(databaseUrl);
    await Promise.all(receivers.map((r) => r.start()));
    // The api's /admin and both processes' /metrics.
    const adminToken = randomBytes(24).toString('hex');
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      REDIS_KEY_PREFIX: redisPrefix,
      PROVIDER_URL: sandbox.url,
      PROVIDER_PRIVATE_KEY: keys.privateKeyPem,
      CREDENTIAL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      // The receivers are on loopback.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      APP_ENV: 'bench',
      LOG_LEVEL: 'info',
      ADMIN_TOKEN: adminToken,
    };
    api = await startApp(API_MAIN, 'PORT', env);
    const admin = new AdminClient(api.url, adminToken);
    const partners: { organizationId: string; authorization: string }[] = [];
    for (let i = 0; i < options.partners; i += 1) {
      const organizationId = await admin.organization(`Bench webhooks partner ${i}`);
      partners.push({ organizationId, authorization: await admin.credential(organizationId) });
    }
    // Endpoint j belongs to partner j mod n.
    const receiverOf = new Map<string, Receiver>();
    for (const [j, receiver] of receivers.entries()) {
      const res = await fetch(`${api.url}/v1/webhook_endpoints`, {
        method: 'POST',
        headers: {
          authorization: partners[j % partners.length].authorization,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ url: receiver.url, events: ['swap.status_changed'] }),
      });
      const text = await res.text();
      if (res.status !== 201) {
        throw new Error(`endpoint creation answered ${res.status}: ${text}`);
      }
      const { webhookEndpoint } = JSON.parse(text) as {
        webhookEndpoint: { id: string; secret: string };
      };
      receiver.secret = webhookEndpoint.secret;
      receiverOf.set(webhookEndpoint.id, receiver);
    }
    await api.stop();
    api = undefined;

    const adapter = new ChangellyAdapter({
      url: sandbox.url,
      privateKey: createPrivateKey(keys.privateKeyPem),
      timeoutMs: 10_000,
    });
    const providerIds = await createTransactions(adapter, options.swaps);
    // Swap k belongs to partner k mod n: the changes below reach every partner evenly.
    for (const [i, { organizationId }] of partners.entries()) {
      await seedSwaps(
        pool,
        organizationId,
        providerIds.filter((_, k) => k % partners.length === i),
      );
    }

    for (let i = 0; i < options.pollers; i += 1) {
      pollers.push(await startApp(POLLER_MAIN, 'POLLER_HEALTH_PORT', env));
    }
    // Steady state first: every swap listed once and found unchanged.
    await waitFor('the first poll of every swap', 120_000, async () => {
      const { rows } = await pool.query<{ unseen: number }>(
        `SELECT count(*)::int AS unseen FROM swaps WHERE last_seen_at IS NULL`,
      );
      return rows[0].unseen === 0;
    });

    const loadBefore = loadavg()[0];
    let maxPending = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await pool.query<{ pending: number }>(
          `SELECT count(*)::int AS pending FROM webhook_deliveries WHERE status = 'pending'`,
        );
        maxPending = Math.max(maxPending, rows[0].pending);
        await sleep(SAMPLE_EVERY_MS);
      }
    })();

    const forceStarted = Date.now();
    const spacingMs = (options.windowSeconds * 1000) / options.swaps;
    const inFlight = new Set<Promise<void>>();
    for (const [k, id] of providerIds.entries()) {
      await sleep(Math.max(0, forceStarted + k * spacingMs - Date.now()));
      while (inFlight.size >= FORCE_CONCURRENCY) {
        await Promise.race(inFlight);
      }
      const forced = fetch(`${sandbox.baseUrl}/sandbox/transactions/${id}/status`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'confirming' }),
      }).then(async (res) => {
        if (res.status !== 200) {
          throw new Error(`forcing a status answered ${res.status}: ${await res.text()}`);
        }
      });
      const tracked = forced.finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
    }
    await Promise.all(inFlight);

    await waitFor('every delivery', DRAIN_TIMEOUT_MS, async () => {
      const received = receivers.reduce((n, r) => n + r.events.size, 0);
      if (received < expectedDeliveries(options)) {
        return false;
      }
      const { rows } = await pool.query<{ pending: number }>(
        `SELECT count(*)::int AS pending FROM webhook_deliveries WHERE status = 'pending'`,
      );
      return rows[0].pending === 0;
    });
    sampling = false;
    await sampler;

    const [{ events }] = (
      await pool.query<{ events: number }>(
        `SELECT count(*)::int AS events FROM events WHERE type = 'swap.status_changed'`,
      )
    ).rows;
    const { rows: deliveries } = await pool.query<{ event_id: string; endpoint_id: string }>(
      `SELECT event_id, endpoint_id FROM webhook_deliveries`,
    );
    const lost = deliveries.filter(
      (d) => !receiverOf.get(d.endpoint_id)?.events.has(d.event_id),
    ).length;
    const receipts = receivers.flatMap((r) => [...r.events.values()]);
    const latencies = receipts.map((r) => r.latencyMs).sort((a, b) => a - b);
    const firstCreated = Math.min(...receipts.map((r) => r.receivedAt - r.latencyMs));
    const lastReceived = Math.max(...receipts.map((r) => r.receivedAt));
    const pollerCounts = await Promise.all(
      pollers.map(async (poller) => ({
        delivered: await counter(
          poller,
          adminToken,
          'webhook_deliveries_total',
          'outcome="delivered"',
        ),
        leaseLost: await counter(poller, adminToken, 'webhook_lease_lost_total'),
      })),
    );
    return {
      options,
      events,
      expected: deliveries.length,
      received: receipts.length,
      duplicates: receipts.reduce((n, r) => n + r.count - 1, 0),
      lost,
      badSignatures: receivers.reduce((n, r) => n + r.badSignatures, 0),
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs: latencies[latencies.length - 1] ?? 0,
      deliverySeconds: (lastReceived - firstCreated) / 1000,
      pollers: pollerCounts,
      maxPending,
      load: { before: loadBefore, after: loadavg()[0] },
    };
  } finally {
    await Promise.all(pollers.map((p) => p.stop()));
    await api?.stop();
    await Promise.all(receivers.map((r) => r.close()));
    await sandbox.close();
    await pool.end();
    await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await deleteKeys(redisPrefix);
  }
}

function shape(o: WebhooksBenchOptions): string {
  return o.partners === 1
    ? `one partner, ${o.endpoints} endpoints`
    : `${o.partners} partners, ${o.endpoints / o.partners} endpoint${o.partners === o.endpoints ? '' : 's'} each`;
}

function met(m: WebhooksMeasurement): boolean {
  return m.p99Ms < WEBHOOK_TARGET_P99_MS && m.lost === 0;
}

/** The results section `bench/results.md` keeps between its markers: one run per shape. */
export function webhooksSection(runs: WebhooksMeasurement[]): string[] {
  const o = runs[0].options;
  return [
    '## Webhooks at volume',
    '',
    `${o.endpoints} webhook endpoints (\`swap.status_changed\`), each on a receiver of its own (a Node`,
    'HTTP server in the bench process, answering 200, counting every request per event id and',
    `checking its signature); ${o.swaps.toLocaleString('en-US')} waiting swaps shared evenly between the partners`,
    `on a sandbox in the bench process; ${o.pollers} pollers, each \`node dist/apps/poller/main.js\` as a`,
    'process of its own (logs at info, production defaults: `POLL_INTERVAL_MS` 30 s,',
    '`WEBHOOK_TICK_MS` 250 ms). Once the pollers had seen every swap, the sandbox moved each to',
    `\`confirming\`, evenly over ${o.windowSeconds} s; the pollers found the changes in their listing,`,
    'recorded one event per swap and delivered it to each endpoint of its partner. Latency is from',
    "the event's `createdAt` to its first receipt; per poller, its own",
    '`webhook_deliveries_total{outcome="delivered"}` over the time from the first event to the last',
    'receipt. Both shapes of partners in turn, each on a fresh database:',
    '',
    '| partners | events | deliveries | received | lost | repeated | bad signatures | p50 ms | p99 ms | max ms | most pending | per poller: delivered (per s) | load |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
    ...runs.map(
      (m) =>
        `| ${shape(m.options)} | ${m.events} | ${m.expected} | ${m.received} | ${m.lost} | ` +
        `${m.duplicates} | ${m.badSignatures} | ${m.p50Ms} | ${m.p99Ms} | ${m.maxMs} | ` +
        `${m.maxPending} | ${m.pollers
          .map(
            (p) =>
              `${p.delivered} (${(p.delivered / Math.max(0.001, m.deliverySeconds)).toFixed(1)})`,
          )
          .join(', ')} | ${m.load.before.toFixed(1)} → ${m.load.after.toFixed(1)} |`,
    ),
    '',
    ...runs.map(
      (m) =>
        `- ${shape(m.options)}: delivery p99 < ${WEBHOOK_TARGET_P99_MS} ms with ${m.options.pollers} ` +
        `pollers, none lost (p99 ${m.p99Ms} ms, ${m.lost} lost, ${m.duplicates} repeated, ` +
        `${m.pollers.reduce((n, p) => n + p.leaseLost, 0)} leases lost) — **${met(m) ? 'MET' : 'MISSED'}**`,
    ),
  ];
}
