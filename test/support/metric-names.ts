import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Metrics the provider routing exposes (docs/operations.md, "Alerts"): the alerts and panels on
 * budgets, circuits, quote wins and error ratios per provider are written against them.
 */
export const ROUTING_METRICS = [
  'provider_circuit_state',
  'upstream_budget_exhausted_total',
  'provider_quote_wins_total',
];

/** prom-client's default process metrics, in every app registry (`createAppRegistry`). */
const PROCESS_METRICS = ['process_cpu_seconds_total', 'nodejs_eventloop_lag_seconds'];

/** Operators and keywords PromQL writes like names. */
const PROMQL_WORDS = new Set(['and', 'or', 'unless', 'bool', 'offset']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      return sourceFiles(path);
    }
    return /\.tsx?$/.test(name) && !/\.spec\.tsx?$/.test(name) ? [path] : [];
  });
}

/**
 * Every series name the services expose: what the code registers with prom-client (`name: '…'`),
 * the process metrics, the routing's, and Prometheus' own `up`.
 */
export function exposedMetrics(): Set<string> {
  const names = new Set<string>([...ROUTING_METRICS, ...PROCESS_METRICS, 'up']);
  for (const file of [...sourceFiles(join(ROOT, 'apps')), ...sourceFiles(join(ROOT, 'libs'))]) {
    const text = readFileSync(file, 'utf8');
    if (text.includes('prom-client')) {
      for (const match of text.matchAll(/name: '([a-z_:][a-z0-9_:]*)'/g)) {
        names.add(match[1]);
      }
    }
  }
  return names;
}

/** The series names a PromQL expression selects (a histogram's by the histogram's name). */
export function selectedMetrics(expr: string): string[] {
  const byName = [...expr.matchAll(/__name__=~"([^"]+)"/g)].flatMap((m) => m[1].split('|'));
  // Matchers, ranges, label lists and strings hold no series name.
  const names = expr
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/"[^"]*"/g, ' ')
    // A name not followed by `(`: functions and aggregations are.
    .matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*(?![a-zA-Z0-9_:]|\s*\()/g);
  return [...[...names].map((m) => m[0]), ...byName]
    .filter((name) => !PROMQL_WORDS.has(name))
    .map((name) => name.replace(/_(bucket|count|sum)$/, ''));
}

/**
 * The value of one series in a `/metrics` text, named as it prints (`name` or `name{label="…"}`);
 * NaN when it is not there.
 */
export function sampleOf(metricsText: string, series: string): number {
  const escaped = series.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return Number(new RegExp(`^${escaped} ([\\d.e+-]+)$`, 'm').exec(metricsText)?.[1] ?? NaN);
}
