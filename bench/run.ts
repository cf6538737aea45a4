import { execSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import 'reflect-metadata';
import { startBaseline, startFloor } from './baseline.app.js';
import { startBenchEnvironment } from './bench.environment.js';
import { dashboardSection, measureDashboard } from './dashboard.bench.js';
import { measure, median, type LoadOptions, type Measurement } from './load.js';
import { measurePoller, type PollerMeasurement } from './poller.bench.js';
import {
  DASHBOARD_SECTION,
  keptSections,
  NOTES_HEADING,
  RESULTS_FILE,
  rewriteSection,
} from './results-file.js';
import {
  BARE,
  BENCH_CREDENTIALS,
  benchScenarios,
  FLOOR,
  FLOOR_OF,
  LIST,
  QUOTE,
  REPLAY,
  SHORT_FLOOR,
  SWAP_BY_ID,
} from './scenarios.js';
import { SUBSETS, SUBSET_SECTIONS } from './subsets.js';

const OPTIONS: LoadOptions = { connections: 32, durationSeconds: 3, warmupSeconds: 1 };
/**
 * Every scenario runs once per round, rounds one after the other. On a shared machine the load
 * from elsewhere moves between rounds, so each ratio is taken within a round (against that
 * round's bare Nest and floor) and the median of the rounds is reported.
 */
const ROUNDS = 5;
const POLLER = { activeSwaps: 5000, cycles: 3, pollIntervalMs: 10_000 };
const DASHBOARD_SWAPS = 100_000;

function keptNotes(): string[] {
  try {
    const current = readFileSync(RESULTS_FILE, 'utf8');
    const at = current.indexOf(NOTES_HEADING);
    return at === -1 ? [] : [current.slice(at).trimEnd(), ''];
  } catch {
    return [];
  }
}

/** One scenario over the rounds: medians of its figures and of its per-round ratios. */
interface Summary {
  m: Measurement;
  /** The floor `vsFloor` and `p99VsFloor` compare with. */
  floor: string;
  vsBare: number;
  vsFloor: number;
  p99VsFloor: number;
}

interface Target {
  scenario: string;
  description: string;
  met(s: Summary): boolean;
}

const TARGETS: Target[] = [
  {
    scenario: SWAP_BY_ID,
    description: '≥ 0.9 of the I/O floor, p99 ≤ 1.5 × the floor’s p99',
    met: (s) => s.vsFloor >= 0.9 && s.p99VsFloor <= 1.5,
  },
  {
    scenario: REPLAY,
    description: '≥ 0.8 of the I/O floor',
    met: (s) => s.vsFloor >= 0.8,
  },
  {
    scenario: LIST,
    description: '≥ 0.8 of the list floor',
    met: (s) => s.vsFloor >= 0.8,
  },
  {
    scenario: QUOTE,
    description: '≥ 0.9 of the Redis-only floor',
    met: (s) => s.vsFloor >= 0.9,
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

/** A scenario's rounds, each compared with the same round's bare Nest and its floor. */
function summarize(
  rounds: Measurement[],
  bare: Measurement[],
  floorName: string,
  floor: Measurement[],
): Summary {
  const statusCounts: Record<string, number> = {};
  for (const m of rounds) {
    for (const [status, count] of Object.entries(m.statusCounts)) {
      statusCounts[status] = (statusCounts[status] ?? 0) + count;
    }
  }
  const sum = (pick: (m: Measurement) => number): number =>
    rounds.reduce((total, m) => total + pick(m), 0);
  return {
    floor: floorName,
    m: {
      name: rounds[0].name,
      requestsPerSecond: median(rounds.map((m) => m.requestsPerSecond)),
      p50Ms: median(rounds.map((m) => m.p50Ms)),
      p99Ms: median(rounds.map((m) => m.p99Ms)),
      total: sum((m) => m.total),
      non2xx: sum((m) => m.non2xx),
      rateLimited: sum((m) => m.rateLimited),
      errors: sum((m) => m.errors),
      timeouts: sum((m) => m.timeouts),
      statusCounts,
    },
    vsBare: median(rounds.map((m, i) => m.requestsPerSecond / bare[i].requestsPerSecond)),
    vsFloor: median(rounds.map((m, i) => m.requestsPerSecond / floor[i].requestsPerSecond)),
    p99VsFloor: median(rounds.map((m, i) => m.p99Ms / floor[i].p99Ms)),
  };
}

function table(summaries: Summary[]): string[] {
  const rows = summaries.map(({ m, floor, vsBare, vsFloor, p99VsFloor }) => {
    const statuses = Object.entries(m.statusCounts)
      .map(([status, count]) => `${status}: ${count}`)
      .join(', ');
    return (
      `| ${m.name} | ${m.requestsPerSecond.toFixed(0)} | ${m.p50Ms} | ${m.p99Ms} | ` +
      `${vsBare.toFixed(2)} | ${SHORT_FLOOR[floor]} | ${vsFloor.toFixed(2)} | ${p99VsFloor.toFixed(2)} | ` +
      `${m.total} | ${m.non2xx} | ${m.rateLimited} | ${m.errors + m.timeouts} | ${statuses} |`
    );
  });
  return [
    '| scenario | req/s | p50 ms | p99 ms | vs bare Nest | floor | vs floor | p99 vs floor | requests | non-2xx | 429 | errors | statuses |',
    '|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
  ];
}

/** Every round's own figures, so the spread between rounds is on record. */
function roundsTable(rounds: Map<string, Measurement[]>): string[] {
  const names = [...rounds.keys()];
  return [
    `| scenario | ${Array.from({ length: ROUNDS }, (_, i) => `round ${i + 1} req/s (p99 ms)`).join(' | ')} |`,
    `|---|${'---:|'.repeat(ROUNDS)}`,
    ...names.map(
      (name) =>
        `| ${name} | ${(rounds.get(name) ?? [])
          .map((m) => `${m.requestsPerSecond.toFixed(0)} (${m.p99Ms})`)
          .join(' | ')} |`,
    ),
  ];
}

function pollerTable(poller: PollerMeasurement): string[] {
  return [
    '| cycle | provider calls | refreshes per call | seconds |',
    '|---:|---:|---:|---:|',
    ...poller.cycles.map(
      (c, i) =>
        `| ${i + 1}${i === 0 ? ' (cold)' : ''} | ${c.calls} | ${c.refreshesPerCall.toFixed(1)} | ${c.seconds.toFixed(1)} |`,
    ),
  ];
}

/** `npm run bench -- dashboard`: only the dashboard's figures, rewritten in place. */
async function dashboardOnly(): Promise<void> {
  write(`bench: dashboard, ${DASHBOARD_SWAPS} swaps…`);
  const section = dashboardSection(await measureDashboard(DASHBOARD_SWAPS));
  rewriteSection(DASHBOARD_SECTION, section);
  for (const line of section) {
    write(line);
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  write(
    `bench: ${OPTIONS.connections} connections, ${ROUNDS} rounds of ` +
      `${OPTIONS.warmupSeconds} s warm-up + ${OPTIONS.durationSeconds} s per scenario`,
  );
  const baseline = await startBaseline();
  write(
    `bench: seeding ${BENCH_CREDENTIALS} credentials and swaps (paced by the 10/s upstream cap)…`,
  );
  const env = await startBenchEnvironment(BENCH_CREDENTIALS);
  const floor = await startFloor(env.databaseUrl, env.redisUrl, env.redisPrefix, BENCH_CREDENTIALS);
  try {
    const scenarios = benchScenarios(env, baseline.url, floor.url);
    const rounds = new Map<string, Measurement[]>(scenarios.map((s) => [s.name, []]));
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const scenario of scenarios) {
        const m = await measure(scenario, OPTIONS);
        rounds.get(m.name)?.push(m);
        write(
          `round ${round}, ${m.name}: ${m.requestsPerSecond.toFixed(0)} req/s, p50 ${m.p50Ms} ms, ` +
            `p99 ${m.p99Ms} ms, ${m.non2xx} non-2xx (${m.rateLimited} × 429), ` +
            `${m.errors + m.timeouts} errors`,
        );
      }
    }
    const of = (name: string): Measurement[] => rounds.get(name) ?? [];
    const summaries = scenarios.map((s) => {
      const floorName = FLOOR_OF[s.name] ?? FLOOR;
      return summarize(of(s.name), of(BARE), floorName, of(floorName));
    });
    write(
      `bench: poller, ${POLLER.activeSwaps} active swaps over ${POLLER.cycles} cycles ` +
        `(POLL_INTERVAL_MS ${POLLER.pollIntervalMs})…`,
    );
    const poller = await measurePoller({
      ...POLLER,
      redisUrl: env.redisUrl,
      providerKeys: env.providerKeys,
    });
    for (const [i, c] of poller.cycles.entries()) {
      write(
        `poller cycle ${i + 1}: ${c.calls} provider calls, ${c.refreshesPerCall.toFixed(1)} refreshes per call`,
      );
    }
    write(`bench: dashboard, ${DASHBOARD_SWAPS} swaps…`);
    const dashboard = dashboardSection(await measureDashboard(DASHBOARD_SWAPS));
    const verdicts = TARGETS.map((target) => {
      const summary = summaries.find((r) => r.m.name === target.scenario);
      const verdict = summary && target.met(summary) ? 'met' : 'MISSED';
      return `- ${target.scenario}: ${target.description} — **${verdict}**`;
    });
    const info = machine();
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    const lines = [
      '# Benchmark results',
      '',
      'Produced by `npm run bench` (`bench/run.ts`): autocannon in a worker thread against a sandbox,',
      'an api (local Postgres, its own fresh database; local Redis, its own key prefix), a bare',
      'NestJS-Express route and three floors, all in one process on loopback. A floor is bare',
      'NestJS-Express doing only the I/O a route must: the I/O floor (an authenticated read) one',
      '`EVALSHA` counting two sliding windows (ioredis, one defined script) and one named prepared',
      'primary-key query on a plain `pg` pool against a 25-column table; the list floor the same',
      'with one prepared query of 50 rows; the Redis-only floor (the public quote) the `EVALSHA`',
      'alone, answering a quote-sized body. Each scenario is held to its own floor (column',
      '"floor"). ' +
        `${OPTIONS.connections} connections, ${OPTIONS.warmupSeconds} s warm-up then ` +
        `${OPTIONS.durationSeconds} s measured per scenario, ${ROUNDS} rounds of every scenario in turn.`,
      'Each ratio is taken within a round (against that round’s bare Nest and floors); the table',
      'shows the median of the rounds for every figure and ratio, and the rounds follow it.',
      `The api logs every request at info (to /dev/null), trusts one proxy hop and each request`,
      `carries its own \`X-Forwarded-For\`; requests rotate over ${BENCH_CREDENTIALS} credentials of one`,
      'organization, so no production limit is loosened and none is reached (429s would be counted',
      'below as non-2xx).',
      '',
      ...table(summaries),
      '',
      ...roundsTable(rounds),
      '',
      '## Targets',
      '',
      ...verdicts,
      '',
      '## Poller',
      '',
      `${poller.activeSwaps} active swaps on a sandbox of their own, one poller, ` +
        `\`POLL_INTERVAL_MS\` ${poller.pollIntervalMs}; \`getTransactions\` calls per complete cycle:`,
      '',
      ...pollerTable(poller),
      '',
      'Where the time goes: [profile.md](profile.md).',
      '',
      DASHBOARD_SECTION.start,
      ...dashboard,
      DASHBOARD_SECTION.end,
      '',
      ...keptSections(SUBSET_SECTIONS),
      '## Machine',
      '',
      ...Object.entries(info).map(([key, value]) => `- ${key}: ${value}`),
      `- bench duration: ${seconds} s`,
      '',
    ];
    writeFileSync(RESULTS_FILE, [...lines, ...keptNotes()].join('\n'));
    write();
    for (const line of [
      ...table(summaries),
      '',
      ...verdicts,
      '',
      ...pollerTable(poller),
      '',
      ...dashboard,
    ]) {
      write(line);
    }
    write();
    write(`bench: wrote ${RESULTS_FILE} in ${seconds} s`);
  } finally {
    await floor.close();
    await env.close();
    await baseline.close();
  }
}

const subset = process.argv[2];
await (subset === 'dashboard'
  ? dashboardOnly()
  : subset !== undefined && Object.hasOwn(SUBSETS, subset)
    ? SUBSETS[subset](process.argv.slice(3))
    : main());
