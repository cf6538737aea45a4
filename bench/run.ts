import { execSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import 'reflect-metadata';
import { startBaseline } from './baseline.app.js';
import { startBenchEnvironment } from './bench.environment.js';
import { measure, type LoadOptions, type Measurement, type Scenario } from './load.js';

/**
 * Enough credentials that none reaches 30 requests/s (the per-credential limit) below ~9000
 * requests/s; each also owns one seeded swap and one idempotency key to replay.
 */
const CREDENTIALS = 300;
const OPTIONS: LoadOptions = { connections: 32, durationSeconds: 6, warmupSeconds: 2 };
const RESULTS_FILE = fileURLToPath(new URL('../../bench/results.md', import.meta.url));

interface Target {
  scenario: string;
  description: string;
  met(m: Measurement, baseline: Measurement): boolean;
}

const TARGETS: Target[] = [
  {
    scenario: 'GET /v1/swaps/{id}',
    description: '≥ 50 % of baseline requests/s and p99 < 25 ms',
    met: (m, b) => m.requestsPerSecond >= 0.5 * b.requestsPerSecond && m.p99Ms < 25,
  },
  {
    scenario: 'GET /v1/public/quote (cached)',
    description: '≥ 70 % of baseline requests/s',
    met: (m, b) => m.requestsPerSecond >= 0.7 * b.requestsPerSecond,
  },
];

function write(line = ''): void {
  process.stdout.write(`${line}\n`);
}

function machine(): Record<string, string> {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  let nproc = String(availableParallelism());
  try {
    nproc = execSync('nproc', { encoding: 'utf8' }).trim();
  } catch {
    // nproc is coreutils; availableParallelism() is the same number where it is missing.
  }
  return {
    nproc,
    cpu: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? 'unknown',
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
    date: new Date().toISOString(),
  };
}

function table(results: Measurement[], baseline: Measurement): string[] {
  const rows = results.map((m) => {
    const ratio = `${((100 * m.requestsPerSecond) / baseline.requestsPerSecond).toFixed(0)} %`;
    const statuses = Object.entries(m.statusCounts)
      .map(([status, count]) => `${status}: ${count}`)
      .join(', ');
    return `| ${m.name} | ${m.requestsPerSecond.toFixed(0)} | ${m.p50Ms} | ${m.p99Ms} | ${ratio} | ${m.total} | ${m.non2xx} | ${m.rateLimited} | ${m.errors + m.timeouts} | ${statuses} |`;
  });
  return [
    '| scenario | req/s | p50 ms | p99 ms | vs baseline | requests | non-2xx | 429 | errors | statuses |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
  ];
}

async function main(): Promise<void> {
  const started = Date.now();
  write(`bench: ${OPTIONS.connections} connections, ${OPTIONS.durationSeconds} s per scenario`);
  const baseline = await startBaseline();
  write(`bench: seeding ${CREDENTIALS} credentials and swaps (paced by the 10/s upstream cap)…`);
  const env = await startBenchEnvironment(CREDENTIALS);
  try {
    const swapBody = JSON.stringify(env.swapBody);
    const scenarios: Scenario[] = [
      {
        name: 'baseline: bare NestJS-Express GET',
        baseUrl: baseline.url,
        method: 'GET',
        requests: env.credentials.map((c) => ({
          path: '/',
          headers: { authorization: c.authorization },
        })),
      },
      {
        name: 'GET /v1/swaps/{id}',
        baseUrl: env.apiUrl,
        method: 'GET',
        requests: env.credentials.map((c) => ({
          path: `/v1/swaps/${c.swapId}`,
          headers: { authorization: c.authorization },
        })),
      },
      {
        name: 'GET /v1/swaps?limit=50',
        baseUrl: env.apiUrl,
        method: 'GET',
        requests: env.credentials.map((c) => ({
          path: '/v1/swaps?limit=50',
          headers: { authorization: c.authorization },
        })),
      },
      {
        name: 'GET /v1/public/quote (cached)',
        baseUrl: env.apiUrl,
        method: 'GET',
        requests: [{ path: '/v1/public/quote?from=btc&to=eth&amount=0.5', headers: {} }],
      },
      {
        name: 'POST /v1/swaps (idempotent replay)',
        baseUrl: env.apiUrl,
        method: 'POST',
        body: swapBody,
        requests: env.credentials.map((c) => ({
          path: '/v1/swaps',
          headers: {
            authorization: c.authorization,
            'content-type': 'application/json',
            'idempotency-key': c.idempotencyKey,
          },
        })),
      },
    ];
    const results: Measurement[] = [];
    for (const scenario of scenarios) {
      const m = await measure(scenario, OPTIONS);
      results.push(m);
      write(
        `${m.name}: ${m.requestsPerSecond.toFixed(0)} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, ` +
          `${m.non2xx} non-2xx (${m.rateLimited} × 429), ${m.errors + m.timeouts} errors`,
      );
    }
    const base = results[0];
    const verdicts = TARGETS.map((target) => {
      const m = results.find((r) => r.name === target.scenario);
      const verdict = m && target.met(m, base) ? 'met' : 'MISSED';
      return `- ${target.scenario}: ${target.description} — **${verdict}**`;
    });
    const info = machine();
    const lines = [
      '# Benchmark results',
      '',
      'Produced by `npm run bench` (`bench/run.ts`): autocannon in a worker thread against a sandbox,',
      'an api (local Postgres, its own fresh database; local Redis, its own key prefix) and a bare',
      'NestJS-Express baseline, all in one process on loopback. ' +
        `${OPTIONS.connections} connections, ${OPTIONS.warmupSeconds} s warm-up then ` +
        `${OPTIONS.durationSeconds} s measured per scenario.`,
      `The api logs every request at info (to /dev/null), trusts one proxy hop and each request`,
      `carries its own \`X-Forwarded-For\`; requests rotate over ${CREDENTIALS} credentials of one`,
      'organization, so no production limit is loosened and none is reached (429s would be counted',
      'below as non-2xx).',
      '',
      ...table(results, base),
      '',
      '## Targets',
      '',
      ...verdicts,
      '',
      'Where the time goes and what stands in the way of the targets: [profile.md](profile.md).',
      '',
      '## Machine',
      '',
      ...Object.entries(info).map(([key, value]) => `- ${key}: ${value}`),
      '',
    ];
    writeFileSync(RESULTS_FILE, lines.join('\n'));
    write();
    for (const line of [...table(results, base), '', ...verdicts]) {
      write(line);
    }
    write();
    write(`bench: wrote ${RESULTS_FILE} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await env.close();
    await baseline.close();
  }
}

await main();
