import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

/** One request shape; a scenario cycles through its list, one entry per request. */
export interface LoadRequest {
  path: string;
  headers: Record<string, string>;
}

export interface Scenario {
  name: string;
  baseUrl: string;
  /** Several replicas of `baseUrl`'s app: the connections are spread over them in turn. */
  replicas?: string[];
  method: 'GET' | 'POST';
  body?: string;
  requests: LoadRequest[];
}

/** The middle of `values` (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
}

export interface Measurement {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  non2xx: number;
  rateLimited: number;
  errors: number;
  timeouts: number;
  statusCounts: Record<string, number>;
}

/**
 * autocannon runs in a worker thread, so the load generator does not share the event loop it
 * measures. A worker can only take functions as files it can `require`, so each scenario's
 * request rotation is written out as a small CommonJS module beside its data.
 */
const SETUP_REQUEST_SOURCE = `'use strict';
const data = require('./data.json');
let n = 0;
module.exports = function setupRequest(request) {
  const entry = data.requests[n % data.requests.length];
  const ip = data.ipBase + n;
  n += 1;
  request.path = entry.path;
  request.headers = Object.assign({}, request.headers, entry.headers, {
    'x-forwarded-for': '10.' + ((ip >> 16) & 255) + '.' + ((ip >> 8) & 255) + '.' + (ip & 255),
  });
  return request;
};
`;

let ipBase = 0;

async function fire(
  scenario: Scenario,
  connections: number,
  durationSeconds: number,
): Promise<autocannon.Result> {
  const dir = mkdtempSync(join(tmpdir(), 'swap-bench-'));
  try {
    // Every request gets a client address of its own, across runs too (60/min/IP on the public quote).
    writeFileSync(join(dir, 'data.json'), JSON.stringify({ requests: scenario.requests, ipBase }));
    ipBase += 4_000_000;
    const setupRequest = join(dir, 'setup-request.cjs');
    writeFileSync(setupRequest, SETUP_REQUEST_SOURCE);
    return await autocannon({
      // autocannon spreads its connections over a list of URLs; its types name a string only.
      url: (scenario.replicas ?? scenario.baseUrl) as string,
      connections,
      duration: durationSeconds,
      workers: 1,
      method: scenario.method,
      body: scenario.body,
      headers: scenario.body === undefined ? {} : { 'content-type': 'application/json' },
      requests: [
        {
          method: scenario.method,
          body: scenario.body,
          setupRequest,
        },
      ],
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Work wrapped around the measured run alone (a CPU profile), not the warm-up. */
export interface MeasuredWindow {
  open(): Promise<void>;
  close(): Promise<void>;
}

/** A warm-up run (discarded: JIT, caches, pools), then the measured run. */
export async function measure(
  scenario: Scenario,
  options: LoadOptions,
  window?: MeasuredWindow,
): Promise<Measurement> {
  await fire(scenario, options.connections, options.warmupSeconds);
  await window?.open();
  const result = await fire(scenario, options.connections, options.durationSeconds).finally(() =>
    window?.close(),
  );
  const statusCounts = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [
      status,
      stats.count ?? 0,
    ]),
  );
  return {
    name: scenario.name,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    rateLimited: statusCounts['429'] ?? 0,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCounts,
  };
}
