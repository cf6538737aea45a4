import { loadavg } from 'node:os';
import type { PipelineStep } from '#app/http';
import { startBenchEnvironment } from './bench.environment.js';
import { measure, median, type LoadOptions, type Measurement } from './load.js';
import { apiScenarios, BENCH_CREDENTIALS } from './scenarios.js';

/** Each step the api can leave out, and what it does on every request. */
export const STEPS: [PipelineStep, string][] = [
  ['access-log', 'the access log line (pino, to /dev/null)'],
  ['request-metrics', 'the request counter and duration histogram'],
  ['headers', "`Cache-Control` and helmet's security headers"],
  ['validation', 'the validation pipe (class-transformer and class-validator)'],
];

/** One round per variant (the full api and one per step), so each is first once. */
export const STEPS_DEFAULTS = { rounds: STEPS.length + 1 };
const OPTIONS: LoadOptions = { connections: 32, durationSeconds: 3, warmupSeconds: 1 };

/** One api route with every step, and with each step left out in turn, over the rounds. */
export interface StepsRow {
  route: string;
  /** The whole pipeline's req/s per round. */
  full: number[];
  /** Per step: req/s with it left out, per round. */
  without: Map<PipelineStep, number[]>;
  /** Non-2xx answers of any variant (a variant that broke the route is no measurement). */
  non2xx: number;
}

export interface StepsMeasurement {
  rows: StepsRow[];
  rounds: number;
  loadBefore: number;
  loadAfter: number;
}

/**
 * Every route of the read bench against the full api and against one api per step with that step
 * left out, all on the same database and Redis, in turn within each round (each round starting
 * with the next variant); a step's cost is the throughput its absence gains, as a ratio within
 * the round.
 */
export async function measureSteps(rounds = STEPS_DEFAULTS.rounds): Promise<StepsMeasurement> {
  const env = await startBenchEnvironment(BENCH_CREDENTIALS);
  try {
    const variants: [PipelineStep | null, string][] = [[null, env.apiUrl]];
    for (const [step] of STEPS) {
      variants.push([step, await env.startApi(new Set([step]))]);
    }
    const rows: StepsRow[] = apiScenarios(env).map((scenario) => ({
      route: scenario.name,
      full: [],
      without: new Map(STEPS.map(([step]) => [step, []])),
      non2xx: 0,
    }));
    const loadBefore = loadavg()[0];
    for (let round = 0; round < rounds; round += 1) {
      for (const [i, scenario] of apiScenarios(env).entries()) {
        // Each round starts with another variant, so none is always the first after a switch.
        const turn = [
          ...variants.slice(round % variants.length),
          ...variants.slice(0, round % variants.length),
        ];
        for (const [step, baseUrl] of turn) {
          const m: Measurement = await measure({ ...scenario, baseUrl }, OPTIONS);
          rows[i].non2xx += m.non2xx + m.errors;
          (step === null ? rows[i].full : rows[i].without.get(step)!).push(m.requestsPerSecond);
        }
      }
    }
    return { rows, rounds, loadBefore, loadAfter: loadavg()[0] };
  } finally {
    await env.close();
  }
}

/** How much faster the route ran without the step, per round. */
function gains(row: StepsRow, step: PipelineStep): number[] {
  return row.without.get(step)!.map((rps, round) => rps / row.full[round]);
}

export function stepsSection(m: StepsMeasurement): string[] {
  const percent = (ratio: number): string =>
    `${ratio >= 1 ? '+' : '−'}${(Math.abs(ratio - 1) * 100).toFixed(1)} %`;
  const cell = (ratios: number[]): string =>
    `${percent(median(ratios))} (${percent(Math.min(...ratios))} … ${percent(Math.max(...ratios))})`;
  return [
    '## The cost of each per-request step',
    '',
    'Each route of the read bench (same load: 32 connections, 1 s warm-up then 3 s) against the',
    "full api and against one api per step with only that step left out (`createApiApp`'s",
    '`without`, which only the bench passes), on the same database and Redis, in turn within',
    `each of ${m.rounds} rounds, each round starting with the next of them. A cell is how much`,
    'more the route served without the step, "without / full": the median of the rounds\' ratios',
    'and, in brackets, their lowest and highest. A step costs what its median gains; where the',
    `brackets span zero the cost is within this machine's noise. Load average`,
    `${m.loadBefore.toFixed(1)} before, ${m.loadAfter.toFixed(1)} after.`,
    '',
    `| step left out | ${m.rows.map((r) => r.route).join(' | ')} |`,
    `|---|${m.rows.map(() => '---:').join('|')}|`,
    ...STEPS.map(
      ([step, what]) =>
        `| ${step}: ${what} | ${m.rows.map((row) => cell(gains(row, step))).join(' | ')} |`,
    ),
    `| full pipeline, req/s (median) | ${m.rows.map((row) => median(row.full).toFixed(0)).join(' | ')} |`,
    `| non-2xx answers, all variants | ${m.rows.map((row) => row.non2xx).join(' | ')} |`,
  ];
}
