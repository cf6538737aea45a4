import { GROWTH_DEFAULTS, growthSection, measureGrowth } from './growth.bench.js';
import {
  MEMORY_DEFAULTS,
  measureMemory,
  memorySection,
  memoryWarmupSeconds,
} from './memory.bench.js';
import { PROFILED_ROUTES, profileLines, profileRoutes } from './profile.bench.js';
import {
  GROWTH_SECTION,
  MEMORY_SECTION,
  rewriteSection,
  ROUTING_SECTION,
  SCALE_SECTION,
  STEPS_SECTION,
  WEBHOOKS_SECTION,
  type ResultsSection,
} from './results-file.js';
import { measureRouting, routingSection } from './routing.bench.js';
import { measureScale, SCALE_DEFAULTS, scaleSection } from './scale.bench.js';
import { measureSteps, STEPS, STEPS_DEFAULTS, stepsSection } from './steps.bench.js';
import {
  measureWebhooks,
  WEBHOOK_DEFAULTS,
  WEBHOOK_PARTNERS,
  webhooksSection,
  type WebhooksMeasurement,
} from './webhooks.bench.js';

/** Sections only their own subset writes: the whole run keeps them as they are. */
export const SUBSET_SECTIONS: ResultsSection[] = [
  WEBHOOKS_SECTION,
  STEPS_SECTION,
  MEMORY_SECTION,
  GROWTH_SECTION,
  SCALE_SECTION,
  ROUTING_SECTION,
];

function write(line = ''): void {
  process.stdout.write(`${line}\n`);
}

/** The first argument as a positive whole number, else `fallback`. */
function count(args: string[], fallback: number): number {
  const value = Number(args[0]);
  if (args[0] !== undefined && !(Number.isInteger(value) && value > 0)) {
    throw new Error(`bench: "${args[0]}" is not a positive whole number`);
  }
  return args[0] === undefined ? fallback : value;
}

function report(section: ResultsSection, lines: string[]): void {
  rewriteSection(section, lines);
  for (const line of lines) {
    write(line);
  }
}

/**
 * `npm run bench -- webhooks [swaps]`: 2,000 swaps over 60 s unless told; fewer swaps keep the
 * rate (the window shrinks with them), so a smoke run is short.
 */
async function webhooksOnly(args: string[]): Promise<void> {
  const swaps = count(args, WEBHOOK_DEFAULTS.swaps);
  const windowSeconds = Math.max(
    1,
    Math.round((WEBHOOK_DEFAULTS.windowSeconds * swaps) / WEBHOOK_DEFAULTS.swaps),
  );
  const runs: WebhooksMeasurement[] = [];
  for (const partners of WEBHOOK_PARTNERS) {
    const options = { ...WEBHOOK_DEFAULTS, swaps, windowSeconds, partners };
    write(
      `bench: webhooks, ${swaps} swaps changing status over ${windowSeconds} s, ` +
        `${partners} partner(s), ${options.endpoints} endpoints, ${options.pollers} pollers…`,
    );
    runs.push(await measureWebhooks(options));
  }
  report(WEBHOOKS_SECTION, webhooksSection(runs));
}

/** `npm run bench -- memory [seconds]`: 600 s of the read mix after warm-up unless told. */
async function memoryOnly(args: string[]): Promise<void> {
  const seconds = count(args, MEMORY_DEFAULTS.seconds);
  write(
    `bench: memory, ${memoryWarmupSeconds(seconds)} s of warm-up then ${seconds} s of the read mix…`,
  );
  report(MEMORY_SECTION, memorySection(await measureMemory(seconds)));
}

/**
 * `npm run bench -- profile [route …]`: a CPU profile of each api route of the read bench (all
 * four unless named, e.g. "GET /v1/public/quote (cached)") under its load, summarized by self
 * time; the profiles are written to the temporary directory for a flame graph viewer.
 */
async function profileOnly(args: string[]): Promise<void> {
  const names = args.length > 0 ? args : PROFILED_ROUTES;
  write(`bench: profiling ${names.join(', ')}…`);
  for (const line of profileLines(await profileRoutes(names))) {
    write(line);
  }
}

/** `npm run bench -- steps [rounds]`: each route with each per-request step left out in turn. */
async function stepsOnly(args: string[]): Promise<void> {
  const rounds = count(args, STEPS_DEFAULTS.rounds);
  write(
    `bench: steps, ${rounds} round(s) of every route against the full api and without ` +
      `${STEPS.map(([step]) => step).join(', ')}…`,
  );
  report(STEPS_SECTION, stepsSection(await measureSteps(rounds)));
}

/**
 * `npm run bench -- growth [small large [active active]]`: every hot route at 10,000 then at
 * 1,000,000 stored swaps, and the poller at 1,000 then 15,000 active swaps, unless told; smaller
 * figures make a smoke run.
 */
async function growthOnly(args: string[]): Promise<void> {
  const [small, large, fewActive, manyActive] = [0, 1, 2, 3].map((i) =>
    count(args.slice(i), [...GROWTH_DEFAULTS.sizes, ...GROWTH_DEFAULTS.active][i]),
  );
  write(
    `bench: growth, ${small} then ${large} swaps; the poller at ${fewActive} then ` +
      `${manyActive} active swaps…`,
  );
  report(
    GROWTH_SECTION,
    growthSection(await measureGrowth([small, large], [fewActive, manyActive], write)),
  );
}

/** `npm run bench -- scale [rounds]`: two api replicas against one on the read routes. */
async function scaleOnly(args: string[]): Promise<void> {
  const rounds = count(args, SCALE_DEFAULTS.rounds);
  write(`bench: scale, ${rounds} round(s) of the read routes against one api replica and two…`);
  report(SCALE_SECTION, scaleSection(await measureScale(rounds)));
}

/** `npm run bench -- routing`: a routed quote against each provider's own. */
async function routingOnly(): Promise<void> {
  write('bench: routing, a routed quote against each provider alone…');
  report(ROUTING_SECTION, routingSection(await measureRouting()));
}

export const SUBSETS: Record<string, (args: string[]) => Promise<void>> = {
  routing: routingOnly,
  webhooks: webhooksOnly,
  memory: memoryOnly,
  steps: stepsOnly,
  profile: profileOnly,
  growth: growthOnly,
  scale: scaleOnly,
};
