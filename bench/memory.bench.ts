import { loadavg } from 'node:os';
import { AdminClient, API_MAIN, rssMb, sleep, startApp, type AppProcess } from './apps.js';
import { newSwapBody, seedCredentialSwaps, startSpawnedStack } from './bench.environment.js';
import { measure, median, type LoadOptions, type Scenario } from './load.js';

export const MEMORY_DEFAULTS = {
  /** The read mix after warm-up: 10 minutes. */
  seconds: 600,
};
export const MEMORY_TARGET_GROWTH_MB = 10;

/**
 * Enough credentials that none reaches 30 requests/s (the per-credential limit) below ~6000
 * requests/s; each owns one swap and one idempotency key to replay.
 */
const CREDENTIALS = 200;
/** Each scenario of the mix in turn, for 1 s of warm-up and 4 s of load (autocannon's runs). */
const TURN: LoadOptions = { connections: 16, warmupSeconds: 1, durationSeconds: 4 };
const SAMPLE_EVERY_MS = 1_000;
/** The api's heap, from its `/metrics`, is read this often (as a scraper would). */
const HEAP_EVERY_MS = 15_000;

export interface MemorySample {
  /** Seconds since the read mix began. */
  at: number;
  mb: number;
}

export interface MemoryMeasurement {
  warmupSeconds: number;
  seconds: number;
  /** The api's resident memory. */
  samples: MemorySample[];
  /** Its V8 heap in use. */
  heap: MemorySample[];
  /** Requests per scenario over the whole run, and how many were not 2xx. */
  requests: { name: string; total: number; non2xx: number }[];
  load: { before: number; after: number };
}

/** What the samples say: the level after warm-up, at the end, and the growth between. */
export interface MemoryVerdict {
  /** Median RSS over the first window after warm-up. */
  startMb: number;
  /** The lowest median of any window after warm-up (V8 may give back what warm-up took). */
  lowMb: number;
  /** Median RSS over the last window. */
  endMb: number;
  /** From the lowest level to the end: what the run kept. */
  growthMb: number;
  peakMb: number;
  windowSeconds: number;
  /** Each window's median, in order. */
  levels: number[];
  heapStartMb: number;
  heapEndMb: number;
}

/** Warm-up is a fifth of the measured time, at most a minute (JIT, pools, caches, V8's heap). */
export function memoryWarmupSeconds(seconds: number): number {
  return Math.min(60, Math.ceil(seconds / 5));
}

/** The api's `nodejs_heap_size_used_bytes`, in MB. */
async function heapUsedMb(api: AppProcess, adminToken: string): Promise<number> {
  const res = await fetch(`${api.url}/metrics`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  const line = (await res.text())
    .split('\n')
    .find((l) => l.startsWith('nodejs_heap_size_used_bytes'));
  return Number(line?.slice(line.lastIndexOf(' ') + 1) ?? 'NaN') / 1e6;
}

/**
 * The api as its own process (the production entry point, logs at info) against a sandbox in
 * this process, a database and a Redis key prefix of their own; the read mix (swap by id, list
 * of 50, cached public quote, idempotent replay) in turns for `warmupSeconds + seconds`, its
 * resident memory (`VmRSS` of that process, from the kernel) sampled every second.
 */
export async function measureMemory(seconds: number): Promise<MemoryMeasurement> {
  const warmupSeconds = memoryWarmupSeconds(seconds);
  const stack = await startSpawnedStack('mem');
  let api: AppProcess | undefined;
  try {
    api = await startApp(API_MAIN, 'PORT', stack.env);
    const adminToken = stack.adminToken;
    const admin = new AdminClient(api.url, adminToken);
    const organizationId = await admin.organization('Bench memory partner');
    const swapBody = newSwapBody();
    const credentials = await seedCredentialSwaps(api.url, swapBody, CREDENTIALS, () =>
      admin.credential(organizationId),
    );
    const apiUrl = api.url;
    const mix: Scenario[] = [
      {
        name: 'GET /v1/swaps/{id}',
        baseUrl: apiUrl,
        method: 'GET',
        requests: credentials.map((c) => ({
          path: `/v1/swaps/${c.swapId}`,
          headers: { authorization: c.authorization },
        })),
      },
      {
        name: 'GET /v1/swaps?limit=50',
        baseUrl: apiUrl,
        method: 'GET',
        requests: credentials.map((c) => ({
          path: '/v1/swaps?limit=50',
          headers: { authorization: c.authorization },
        })),
      },
      {
        name: 'GET /v1/public/quote (cached)',
        baseUrl: apiUrl,
        method: 'GET',
        requests: [{ path: '/v1/public/quote?from=btc&to=eth&amount=0.5', headers: {} }],
      },
      {
        name: 'POST /v1/swaps (idempotent replay)',
        baseUrl: apiUrl,
        method: 'POST',
        body: JSON.stringify(swapBody),
        requests: credentials.map((c) => ({
          path: '/v1/swaps',
          headers: {
            authorization: c.authorization,
            'content-type': 'application/json',
            'idempotency-key': c.idempotencyKey,
          },
        })),
      },
    ];

    const pid = api.process.pid ?? 0;
    const samples: MemorySample[] = [];
    const heap: MemorySample[] = [];
    const requests = mix.map((s) => ({ name: s.name, total: 0, non2xx: 0 }));
    const loadBefore = loadavg()[0];
    const started = Date.now();
    const elapsed = (): number => (Date.now() - started) / 1000;
    let running = true;
    const sampler = (async () => {
      let heapAt = 0;
      while (running) {
        samples.push({ at: elapsed(), mb: rssMb(pid) });
        if (Date.now() - heapAt >= HEAP_EVERY_MS) {
          heapAt = Date.now();
          heap.push({ at: elapsed(), mb: await heapUsedMb(api, adminToken) });
        }
        await sleep(SAMPLE_EVERY_MS);
      }
    })();
    try {
      for (let turn = 0; elapsed() < warmupSeconds + seconds; turn += 1) {
        const scenario = mix[turn % mix.length];
        const m = await measure(scenario, TURN);
        requests[turn % mix.length].total += m.total;
        requests[turn % mix.length].non2xx += m.non2xx;
      }
    } finally {
      running = false;
      await sampler;
    }
    return {
      warmupSeconds,
      seconds,
      samples,
      heap,
      requests,
      load: { before: loadBefore, after: loadavg()[0] },
    };
  } finally {
    await api?.stop();
    await stack.close();
  }
}

/**
 * Levels are medians over windows (a tenth of the measured time, 10 s to 60 s), so one
 * collection's sawtooth does not read as growth. Growth is from the lowest window after warm-up
 * to the last: a heap that shrinks after warm-up and then creeps back up is still growth.
 */
export function judgeMemory(m: MemoryMeasurement): MemoryVerdict {
  const windowSeconds = Math.min(60, Math.max(10, m.seconds / 10));
  const after = m.samples.filter((s) => s.at >= m.warmupSeconds);
  const windows: number[][] = [];
  for (const s of after) {
    (windows[Math.floor((s.at - m.warmupSeconds) / windowSeconds)] ??= []).push(s.mb);
  }
  const last = after[after.length - 1]?.at ?? m.warmupSeconds;
  const endMb = median(after.filter((s) => s.at > last - windowSeconds).map((s) => s.mb));
  const levels = windows.filter((w) => w.length > 0).map(median);
  const lowMb = Math.min(endMb, ...levels);
  const heapAfter = m.heap.filter((s) => s.at >= m.warmupSeconds);
  return {
    startMb: median(windows[0] ?? []),
    lowMb,
    endMb,
    growthMb: endMb - lowMb,
    peakMb: Math.max(...after.map((s) => s.mb)),
    windowSeconds,
    levels,
    heapStartMb: heapAfter[0]?.mb ?? Number.NaN,
    heapEndMb: heapAfter[heapAfter.length - 1]?.mb ?? Number.NaN,
  };
}

/** The results section `bench/results.md` keeps between its markers. */
export function memorySection(m: MemoryMeasurement): string[] {
  const v = judgeMemory(m);
  const met = v.growthMb < MEMORY_TARGET_GROWTH_MB;
  const minutes = (s: number): string =>
    s % 60 === 0 ? `${s / 60} min` : `${(s / 60).toFixed(1)} min`;
  return [
    '## Memory under the read mix',
    '',
    'The api as its own process (`node dist/apps/api/main.js`, logs at info, its own database',
    'and Redis prefix, a sandbox in the bench process); what is measured is that process’s',
    'resident memory (`VmRSS` in `/proc/<pid>/status`, sampled every second), not the bench’s.',
    `The read mix (swap by id, list of 50, cached public quote, idempotent replay) in turns of`,
    `${TURN.warmupSeconds + TURN.durationSeconds} s at ${TURN.connections} connections over ` +
      `${CREDENTIALS} credentials: ${minutes(m.warmupSeconds)} of warm-up, then ` +
      `${minutes(m.seconds)} measured. Levels are medians over windows of`,
    `${v.windowSeconds.toFixed(0)} s; growth is from the lowest window after warm-up to the last. ` +
      `Load average ${m.load.before.toFixed(1)} when it began, ${m.load.after.toFixed(1)} at the end.`,
    '',
    '| RSS after warm-up MB | lowest MB | at the end MB | growth MB | peak MB | heap used MB (start → end) |',
    '|---:|---:|---:|---:|---:|---|',
    `| ${v.startMb.toFixed(1)} | ${v.lowMb.toFixed(1)} | ${v.endMb.toFixed(1)} | ` +
      `${v.growthMb.toFixed(1)} | ${v.peakMb.toFixed(1)} | ` +
      `${v.heapStartMb.toFixed(1)} → ${v.heapEndMb.toFixed(1)} |`,
    '',
    `RSS by window, MB: ${v.levels.map((l) => l.toFixed(1)).join(', ')}.`,
    '',
    '| scenario | requests | non-2xx |',
    '|---|---:|---:|',
    ...m.requests.map((r) => `| ${r.name} | ${r.total} | ${r.non2xx} |`),
    '',
    `- api RSS growth over ${minutes(m.seconds)} of the read mix < ${MEMORY_TARGET_GROWTH_MB} MB ` +
      `(${v.growthMb.toFixed(1)} MB) — **${met ? 'MET' : 'MISSED'}**`,
  ];
}
