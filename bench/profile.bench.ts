import { writeFileSync } from 'node:fs';
import { Session, type Profiler, type Runtime } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { startBenchEnvironment } from './bench.environment.js';
import { measure, type Measurement, type MeasuredWindow } from './load.js';
import { apiScenarios, BENCH_CREDENTIALS, LIST, QUOTE, REPLAY, SWAP_BY_ID } from './scenarios.js';

/** The api's routes a profile is taken of, in the read bench's own load. */
export const PROFILED_ROUTES = [SWAP_BY_ID, LIST, QUOTE, REPLAY];
export const PROFILE_DEFAULTS = { connections: 32, warmupSeconds: 1, durationSeconds: 6 };

/** What a sample's frame is counted under: a package, a part of ours, a part of Node. */
function owner(frame: Runtime.CallFrame): string {
  const { url, functionName } = frame;
  if (url === '') {
    return functionName.startsWith('(') ? functionName : '(native)';
  }
  const modules = url.lastIndexOf('/node_modules/');
  if (modules !== -1) {
    const [scope, name] = url.slice(modules + '/node_modules/'.length).split('/');
    return scope.startsWith('@') ? `${scope}/${name}` : scope;
  }
  const ours = /\/dist\/(apps|libs|bench)\/([^/]+)/.exec(url);
  if (ours) {
    return `ours: ${ours[1]}/${ours[2]}`;
  }
  if (url.startsWith('node:')) {
    const [first, second] = url.slice('node:'.length).split('/');
    return `node: ${first === 'internal' && second !== undefined ? second.replace(/\.js$/, '') : first}`;
  }
  return url;
}

export interface RouteProfile {
  measurement: Measurement;
  /** Share of the main thread's busy samples (idle left out), per owner, largest first. */
  owners: [string, number][];
  /** The same per function (`name owner`), the largest only. */
  functions: [string, number][];
  file: string;
}

/** Self-time shares of a CPU profile, the idle samples left out. */
function shares(profile: Profiler.Profile): Pick<RouteProfile, 'owners' | 'functions'> {
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0 || node.callFrame.functionName === '(idle)') {
      continue;
    }
    busy += hits;
    const who = owner(node.callFrame);
    byOwner.set(who, (byOwner.get(who) ?? 0) + hits);
    const { functionName, url, lineNumber } = node.callFrame;
    const name = functionName || `(anonymous at ${basename(url)}:${lineNumber + 1})`;
    const fn = `${name} [${who}]`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + hits);
  }
  const ranked = (map: Map<string, number>, most: number): [string, number][] =>
    [...map.entries()]
      .map(([key, hits]): [string, number] => [key, hits / Math.max(1, busy)])
      .sort((a, b) => b[1] - a[1])
      .slice(0, most);
  return { owners: ranked(byOwner, 16), functions: ranked(byFunction, 20) };
}

/** A CPU profile of the main thread for the measured seconds only. */
function profiler(session: Session, done: (profile: Profiler.Profile) => void): MeasuredWindow {
  return {
    open: async () => {
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 200 });
      await session.post('Profiler.start');
    },
    close: async () => {
      const { profile } = await session.post('Profiler.stop');
      await session.post('Profiler.disable');
      done(profile);
    },
  };
}

/**
 * Each route of `names` under the read bench's load (its seeded api, 32 connections), with the
 * main thread profiled while it is measured: the api and the sandbox share that thread, and the
 * load generator runs in a worker, so the profile is the server's work.
 */
export async function profileRoutes(
  names: string[],
  options = PROFILE_DEFAULTS,
): Promise<RouteProfile[]> {
  const env = await startBenchEnvironment(BENCH_CREDENTIALS);
  const session = new Session();
  session.connect();
  try {
    const scenarios = apiScenarios(env);
    const profiles: RouteProfile[] = [];
    for (const name of names) {
      const scenario = scenarios.find((s) => s.name === name);
      if (!scenario) {
        throw new Error(`bench: no scenario "${name}"`);
      }
      let taken: Profiler.Profile | null = null;
      const measurement = await measure(
        scenario,
        options,
        profiler(session, (profile) => (taken = profile)),
      );
      if (taken === null) {
        throw new Error(`bench: no profile of "${name}"`);
      }
      const file = join(tmpdir(), `swap-bench-${name.replace(/[^a-z0-9]+/gi, '-')}.cpuprofile`);
      writeFileSync(file, JSON.stringify(taken));
      profiles.push({ measurement, file, ...shares(taken) });
    }
    return profiles;
  } finally {
    session.disconnect();
    await env.close();
  }
}

const percent = (share: number): string => `${(share * 100).toFixed(1)} %`;

/** The profiles as text: per route, its load, then the owners and functions by share. */
export function profileLines(profiles: RouteProfile[]): string[] {
  return profiles.flatMap(({ measurement: m, owners, functions, file }) => [
    `## ${m.name}: ${m.requestsPerSecond.toFixed(0)} req/s, p99 ${m.p99Ms} ms (profile: ${file})`,
    '',
    '| self time of | share |',
    '|---|---:|',
    ...owners.map(([who, share]) => `| ${who} | ${percent(share)} |`),
    '',
    '| function | share |',
    '|---|---:|',
    ...functions.map(([fn, share]) => `| ${fn} | ${percent(share)} |`),
    '',
  ]);
}
