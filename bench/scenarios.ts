import type { BenchEnvironment } from './bench.environment.js';
import type { Scenario } from './load.js';

export const BARE = 'bare NestJS-Express GET';
export const FLOOR = 'I/O floor (EVALSHA + prepared pg read)';
export const LIST_FLOOR = 'list floor (EVALSHA + prepared 50-row read)';
export const REDIS_FLOOR = 'Redis-only floor (EVALSHA)';
export const SWAP_BY_ID = 'GET /v1/swaps/{id}';
export const LIST = 'GET /v1/swaps?limit=50';
export const QUOTE = 'GET /v1/public/quote (cached)';
export const REPLAY = 'POST /v1/swaps (idempotent replay)';

/** The floor each scenario is held to: what its route cannot avoid doing. */
export const FLOOR_OF: Record<string, string> = {
  [LIST_FLOOR]: LIST_FLOOR,
  [REDIS_FLOOR]: REDIS_FLOOR,
  [LIST]: LIST_FLOOR,
  [QUOTE]: REDIS_FLOOR,
};
export const SHORT_FLOOR: Record<string, string> = {
  [FLOOR]: 'I/O',
  [LIST_FLOOR]: 'list',
  [REDIS_FLOOR]: 'Redis-only',
};

/**
 * Enough credentials that none reaches 30 requests/s (the per-credential limit) below ~9000
 * requests/s; each also owns one seeded swap and one idempotency key to replay.
 */
export const BENCH_CREDENTIALS = 300;

/**
 * Every scenario of the read bench, in the order a round runs them: bare Nest, the floors, then
 * the api's routes, each request rotating over the seeded credentials.
 */
export function benchScenarios(
  env: BenchEnvironment,
  baselineUrl: string,
  floorUrl: string,
): Scenario[] {
  return [
    {
      name: BARE,
      baseUrl: baselineUrl,
      method: 'GET',
      requests: env.credentials.map((c) => ({
        path: '/',
        headers: { authorization: c.authorization },
      })),
    },
    {
      name: FLOOR,
      baseUrl: floorUrl,
      method: 'GET',
      requests: env.credentials.map((c, i) => ({
        path: `/rows/row${i}`,
        headers: { authorization: c.authorization },
      })),
    },
    {
      name: LIST_FLOOR,
      baseUrl: floorUrl,
      method: 'GET',
      requests: env.credentials.map((c) => ({
        path: '/rows',
        headers: { authorization: c.authorization },
      })),
    },
    {
      name: REDIS_FLOOR,
      baseUrl: floorUrl,
      method: 'GET',
      requests: [{ path: '/quote', headers: {} }],
    },
    ...apiScenarios(env),
  ];
}

/** The api's routes of the read bench, each request rotating over the seeded credentials. */
export function apiScenarios(env: BenchEnvironment): Scenario[] {
  const swapBody = JSON.stringify(env.swapBody);
  return [
    {
      name: SWAP_BY_ID,
      baseUrl: env.apiUrl,
      method: 'GET',
      requests: env.credentials.map((c) => ({
        path: `/v1/swaps/${c.swapId}`,
        headers: { authorization: c.authorization },
      })),
    },
    {
      name: LIST,
      baseUrl: env.apiUrl,
      method: 'GET',
      requests: env.credentials.map((c) => ({
        path: '/v1/swaps?limit=50',
        headers: { authorization: c.authorization },
      })),
    },
    {
      name: QUOTE,
      baseUrl: env.apiUrl,
      method: 'GET',
      requests: [{ path: '/v1/public/quote?from=btc&to=eth&amount=0.5', headers: {} }],
    },
    {
      name: REPLAY,
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
}
