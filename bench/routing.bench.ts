import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { runMigrations } from '#app/persistence';
import {
  AdminClient,
  API_MAIN,
  newProviderKeys,
  sleep,
  startApp,
  startBenchSandbox,
  type AppProcess,
} from './apps.js';
import { adminQuery, deleteKeys } from './bench.environment.js';
import { median } from './load.js';

/** What each provider takes to answer here, on top of the sandbox: the slower one sets the pace. */
export const ROUTING_DEFAULTS = { changellyMs: 120, changenowMs: 180, quotes: 60 };
/** Far below both budgets (10 and 30 calls/s): the bench measures waiting for answers, not slots. */
const QUOTES_PER_SECOND = 4;

export interface RoutingMeasurement {
  changellyMs: number;
  changenowMs: number;
  quotes: number;
  /** p50 and p99 of `POST /v1/quotes`, per `PROVIDERS`. */
  layouts: { providers: string; p50Ms: number; p99Ms: number }[];
}

/** A proxy that holds every request `delayMs` before passing it on: a provider that far away. */
async function distant(target: string, delayMs: number): Promise<{ url: string; server: Server }> {
  const origin = new URL(target);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      setTimeout(() => {
        const upstream = httpRequest(
          {
            host: origin.hostname,
            port: origin.port,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, host: origin.host },
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on('error', () => res.destroy());
        upstream.end(Buffer.concat(chunks));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

/**
 * A routed quote against one provider's: the production api as its own process with
 * `PROVIDERS=changelly`, `changenow`, then both, each provider behind a proxy that adds its own
 * latency (Changelly 120 ms, ChangeNOW 180 ms), and `POST /v1/quotes` paced well under every
 * budget. Both providers are asked in parallel, so the routed quote should cost about the slower
 * provider's own, not the sum.
 */
export async function measureRouting(options = ROUTING_DEFAULTS): Promise<RoutingMeasurement> {
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const database = `swap_bench_routing_${runId}`;
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${database}`;
  const redisPrefix = `bench:${runId}:`;
  const changenowKey = randomBytes(24).toString('hex');
  const keys = newProviderKeys();
  await adminQuery(`CREATE DATABASE ${database}`);
  const sandbox = await startBenchSandbox(keys.publicKeyPem, 60_000, changenowKey);
  const changelly = await distant(sandbox.baseUrl, options.changellyMs);
  const changenow = await distant(sandbox.baseUrl, options.changenowMs);
  const layouts: RoutingMeasurement['layouts'] = [];
  try {
    await runMigrations(databaseUrl);
    const adminToken = randomBytes(24).toString('hex');
    for (const providers of ['changelly', 'changenow', 'changelly,changenow']) {
      let api: AppProcess | null = null;
      try {
        api = await startApp(API_MAIN, 'PORT', {
          DATABASE_URL: databaseUrl,
          REDIS_URL: 'redis://127.0.0.1:6379',
          REDIS_KEY_PREFIX: `${redisPrefix}${providers}:`,
          PROVIDERS: providers,
          PROVIDER_URL: `${changelly.url}/v2`,
          PROVIDER_PRIVATE_KEY: keys.privateKeyPem,
          CHANGENOW_URL: `${changenow.url}/changenow`,
          CHANGENOW_API_KEY: changenowKey,
          ADMIN_TOKEN: adminToken,
          CREDENTIAL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
          APP_ENV: 'bench',
          LOG_LEVEL: 'info',
        });
        const admin = new AdminClient(api.url, adminToken);
        const authorization = await admin.credential(
          await admin.organization(`Bench routing ${randomUUID().slice(0, 8)}`),
        );
        const quote = async (): Promise<number> => {
          const started = performance.now();
          const res = await fetch(`${api?.url}/v1/quotes`, {
            method: 'POST',
            headers: { authorization, 'content-type': 'application/json' },
            body: JSON.stringify({ from: 'btc', to: 'eth', amountFrom: '0.1' }),
          });
          await res.text();
          if (res.status !== 200) {
            throw new Error(`bench: a quote with PROVIDERS=${providers} answered ${res.status}`);
          }
          return performance.now() - started;
        };
        // The catalogue and the pair's bounds are read once, then cached: not what is measured.
        await quote();
        const latencies: number[] = [];
        for (let i = 0; i < options.quotes; i += 1) {
          const started = performance.now();
          latencies.push(await quote());
          await sleep(Math.max(0, 1000 / QUOTES_PER_SECOND - (performance.now() - started)));
        }
        layouts.push({
          providers,
          p50Ms: Math.round(median(latencies)),
          p99Ms: Math.round(percentile(latencies, 99)),
        });
        process.stdout.write(`routing, PROVIDERS=${providers}: p50 ${layouts.at(-1)?.p50Ms} ms\n`);
      } finally {
        await api?.stop();
      }
    }
    return { ...options, layouts };
  } finally {
    changelly.server.close();
    changenow.server.close();
    await sandbox.close();
    await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await deleteKeys(redisPrefix);
  }
}

/** The results section `bench/results.md` keeps between its markers. */
export function routingSection(m: RoutingMeasurement): string[] {
  const p50 = (providers: string) => m.layouts.find((l) => l.providers === providers)?.p50Ms ?? NaN;
  const slower = Math.max(p50('changelly'), p50('changenow'));
  const ratio = p50('changelly,changenow') / slower;
  return [
    '## Routed quotes',
    '',
    `\`npm run bench -- routing\`: \`POST /v1/quotes\` at ${QUOTES_PER_SECOND}/s, ${m.quotes} ` +
      'quotes per layout, against the production api with each `PROVIDERS`; each provider sits ' +
      `behind a proxy adding its latency (Changelly ${m.changellyMs} ms, ChangeNOW ` +
      `${m.changenowMs} ms).`,
    '',
    '| `PROVIDERS` | p50 ms | p99 ms |',
    '| --- | ---: | ---: |',
    ...m.layouts.map((l) => `| ${l.providers} | ${l.p50Ms} | ${l.p99Ms} |`),
    '',
    `Routed over the slower provider alone: **${ratio.toFixed(2)} ×** (target ≤ 1.2 ×: ` +
      `${ratio <= 1.2 ? 'met' : 'MISSED'}); asked one after the other it would be about ` +
      `${((m.changellyMs + m.changenowMs) / m.changenowMs).toFixed(2)} ×.`,
  ];
}
