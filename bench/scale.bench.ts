import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { AdminClient, API_MAIN, startApp, type AppProcess } from './apps.js';
import { newSwapBody, seedCredentialSwaps, startSpawnedStack } from './bench.environment.js';
import { measure, median, type LoadOptions, type Scenario } from './load.js';

export const SCALE_DEFAULTS = { rounds: 5 };
/**
 * Enough credentials that none reaches 30 requests/s (the per-credential limit) below ~6000
 * requests/s; each owns one swap.
 */
const CREDENTIALS = 200;
/** Twice the read bench's connections: enough to keep two replicas busy. */
const LOAD: LoadOptions = { connections: 64, warmupSeconds: 1, durationSeconds: 4 };
/** Clock ticks per second of `/proc/<pid>/stat` (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;
/**
 * A replica's CPU limit in the capped layouts, as a pod's `limits.cpu` sets one (the same CFS
 * quota): small enough that two capped replicas, Postgres, Redis and the load generator fit in
 * this machine's two cores together.
 */
const CAPPED_CORES = 0.2;
const CPU_CGROUPS = '/sys/fs/cgroup/cpu';
const CFS_PERIOD_US = 100_000;

/**
 * Each replica in a CPU cgroup of its own (cgroup v1 `cpu` controller, as the kubelet's CFS quota
 * for a pod's CPU limit), whose quota `limit` sets; null where this machine lets no process make
 * one.
 */
class CpuQuotas {
  private constructor(private readonly groups: string[]) {}

  static create(name: string, pids: number[]): CpuQuotas | null {
    const groups: string[] = [];
    try {
      for (const [i, pid] of pids.entries()) {
        const group = join(CPU_CGROUPS, `${name}-${i}`);
        mkdirSync(group);
        groups.push(group);
        writeFileSync(join(group, 'cpu.cfs_period_us'), String(CFS_PERIOD_US));
        writeFileSync(join(group, 'cgroup.procs'), String(pid));
      }
      return new CpuQuotas(groups);
    } catch {
      new CpuQuotas(groups).remove();
      return null;
    }
  }

  /** Caps each replica at `cores`, or lifts the cap (null). */
  limit(cores: number | null): void {
    for (const group of this.groups) {
      writeFileSync(
        join(group, 'cpu.cfs_quota_us'),
        String(cores === null ? -1 : Math.round(cores * CFS_PERIOD_US)),
      );
    }
  }

  /** Once the replicas have exited: an empty cgroup can be removed. */
  remove(): void {
    for (const group of this.groups) {
      try {
        rmdirSync(group);
      } catch {
        // Still holding a process that has not exited yet: the kernel keeps it, harmless.
      }
    }
  }
}

/** One route's load on one layout (one replica, or two behind a round robin). */
interface Run {
  requestsPerSecond: number;
  non2xx: number;
  /** CPU the replicas used per request, in ms. */
  replicaCpuMsPerRequest: number;
  /** How busy the whole machine was, 0 to 1 of all its cores. */
  machineBusy: number;
}

/** One route on one CPU setting: the runs of one replica and of two, round by round. */
interface Layouts {
  name: string;
  /** Each replica's CPU limit, in cores; null for none (what the machine gives). */
  capCores: number | null;
  one: Run[];
  two: Run[];
}

export interface ScaleMeasurement {
  rounds: number;
  cores: number;
  /** Whether the capped layouts could be measured (a CPU cgroup could be made). */
  capped: boolean;
  routes: Layouts[];
}

/** utime + stime of a process, in clock ticks. */
function processTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** Busy and total ticks of the whole machine, from `/proc/stat`. */
function machineTicks(): { busy: number; total: number } {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1);
  const ticks = cpu.map(Number);
  const idle = ticks[3] + ticks[4];
  const total = ticks.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/** One measured run of `scenario` against `replicas`, with the CPU they and the machine used. */
async function run(scenario: Scenario, replicas: AppProcess[]): Promise<Run> {
  const pids = replicas.map((r) => r.process.pid ?? 0);
  let before = { replicas: 0, machine: machineTicks() };
  let after = before;
  const m = await measure({ ...scenario, replicas: replicas.map((r) => r.url) }, LOAD, {
    open: () => {
      before = {
        replicas: pids.reduce((t, pid) => t + processTicks(pid), 0),
        machine: machineTicks(),
      };
      return Promise.resolve();
    },
    close: () => {
      after = {
        replicas: pids.reduce((t, pid) => t + processTicks(pid), 0),
        machine: machineTicks(),
      };
      return Promise.resolve();
    },
  });
  const cpuMs = ((after.replicas - before.replicas) * 1000) / TICKS_PER_SECOND;
  return {
    requestsPerSecond: m.requestsPerSecond,
    non2xx: m.non2xx,
    replicaCpuMsPerRequest: cpuMs / Math.max(1, m.total),
    machineBusy:
      (after.machine.busy - before.machine.busy) /
      Math.max(1, after.machine.total - before.machine.total),
  };
}

/**
 * Two api replicas against one: the production entry point twice, as its own processes on one
 * database, Redis and sandbox, and the read routes (swap by id, list of 50) driven at one
 * replica, then at both with the connections spread over them as a round-robin balancer (or a
 * Service) would. Rounds alternate which layout goes first, so a drift of the machine's load
 * weighs on both.
 */
export async function measureScale(rounds: number): Promise<ScaleMeasurement> {
  const stack = await startSpawnedStack('scale');
  const replicas: AppProcess[] = [];
  let quotas: CpuQuotas | null = null;
  try {
    replicas.push(await startApp(API_MAIN, 'PORT', stack.env));
    replicas.push(await startApp(API_MAIN, 'PORT', stack.env));
    const admin = new AdminClient(replicas[0].url, stack.adminToken);
    const organizationId = await admin.organization('Bench scale partner');
    const credentials = await seedCredentialSwaps(replicas[0].url, newSwapBody(), CREDENTIALS, () =>
      admin.credential(organizationId),
    );
    const scenarios: Scenario[] = [
      {
        name: 'GET /v1/swaps/{id}',
        baseUrl: replicas[0].url,
        method: 'GET',
        requests: credentials.map((c) => ({
          path: `/v1/swaps/${c.swapId}`,
          headers: { authorization: c.authorization },
        })),
      },
      {
        name: 'GET /v1/swaps?limit=50',
        baseUrl: replicas[0].url,
        method: 'GET',
        requests: credentials.map((c) => ({
          path: '/v1/swaps?limit=50',
          headers: { authorization: c.authorization },
        })),
      },
    ];
    quotas = CpuQuotas.create(
      `swap-bench-scale-${process.pid}`,
      replicas.map((r) => r.process.pid ?? 0),
    );
    const caps = quotas === null ? [null] : [null, CAPPED_CORES];
    const routes: Layouts[] = caps.flatMap((capCores) =>
      scenarios.map((s) => ({ name: s.name, capCores, one: [], two: [] })),
    );
    for (let round = 0; round < rounds; round += 1) {
      for (const route of routes) {
        quotas?.limit(route.capCores);
        const scenario = scenarios.find((s) => s.name === route.name)!;
        const layouts = [
          { runs: route.one, replicas: replicas.slice(0, 1) },
          { runs: route.two, replicas },
        ];
        for (const layout of round % 2 === 0 ? layouts : [...layouts].reverse()) {
          const measured = await run(scenario, layout.replicas);
          layout.runs.push(measured);
          process.stdout.write(
            `round ${round + 1}, ${scenario.name}, ${layout.replicas.length} replica(s)` +
              `${route.capCores === null ? '' : ` of ${route.capCores} CPU`}: ` +
              `${measured.requestsPerSecond.toFixed(0)} req/s, machine ` +
              `${(measured.machineBusy * 100).toFixed(0)} % busy\n`,
          );
        }
      }
    }
    return { rounds, cores: availableParallelism(), capped: quotas !== null, routes };
  } finally {
    await Promise.all(replicas.map((r) => r.stop()));
    quotas?.remove();
    await stack.close();
  }
}

/** The results section `bench/results.md` keeps between its markers. */
export function scaleSection(m: ScaleMeasurement): string[] {
  const rows = m.routes.map(({ name, capCores, one, two }) => {
    const ratio = median(one.map((r, i) => two[i].requestsPerSecond / r.requestsPerSecond));
    const cpu = (runs: Run[]) => median(runs.map((r) => r.replicaCpuMsPerRequest)).toFixed(2);
    const busy = (runs: Run[]) => `${(median(runs.map((r) => r.machineBusy)) * 100).toFixed(0)} %`;
    const rps = (runs: Run[]) => median(runs.map((r) => r.requestsPerSecond)).toFixed(0);
    const non2xx = [...one, ...two].reduce((t, r) => t + r.non2xx, 0);
    const limit = capCores === null ? 'none' : `${capCores} CPU`;
    return (
      `| ${name} | ${limit} | ${rps(one)} | ${rps(two)} | **${ratio.toFixed(2)}** | ${cpu(one)} | ` +
      `${cpu(two)} | ${busy(one)} | ${busy(two)} | ${non2xx} |`
    );
  });
  return [
    '## Two api replicas against one',
    '',
    '`npm run bench -- scale`: the api as its own processes (`node dist/apps/api/main.js`, logs at',
    'info), one replica and then two on the same database, Redis and sandbox, the read routes',
    `driven at ${LOAD.connections} connections (${LOAD.warmupSeconds} s warm-up, ` +
      `${LOAD.durationSeconds} s measured), spread over the replicas as a round-robin balancer`,
    `would; ${m.rounds} rounds, alternating which layout goes first; medians of the rounds, the`,
    'ratio (2 replicas / 1) taken within each round. "CPU per request" is what the replicas',
    'used (`/proc/<pid>/stat`) per request answered; "machine busy" is all cores (`/proc/stat`).',
    `This machine has ${m.cores} cores, shared by the replicas, Postgres, Redis and the load`,
    'generator (and whatever else runs on it). Without a limit each replica takes what the',
    'machine gives, so the ratio says how much CPU was left over, not how replicas add up; with',
    `a limit (${CAPPED_CORES} CPU per replica, the CFS quota a pod's \`limits.cpu\` sets, through a`,
    'cgroup of its own) each replica is bound by its own CPU, as in a cluster where every pod',
    'has its share, and the ratio shows what a second replica adds.',
    ...(m.capped
      ? []
      : ['', 'No CPU cgroup could be made here: only the layouts without a limit ran.']),
    '',
    '| route | CPU limit per replica | 1 replica req/s | 2 replicas req/s | ratio | CPU per request, 1 (ms) | CPU per request, 2 (ms) | machine busy, 1 | machine busy, 2 | non-2xx |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ];
}
