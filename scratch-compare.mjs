// Scratch (not committed): GET /v1/swaps/{id} of two api builds, same run, alternating rounds.
import { randomBytes } from 'node:crypto';
import { AdminClient, API_MAIN, startApp } from './dist/bench/apps.js';
import {
  adminQuery,
  newSwapBody,
  seedCredentialSwaps,
  startSpawnedStack,
} from './dist/bench/bench.environment.js';
import { measure, median } from './dist/bench/load.js';

const OLD_MAIN = process.env.OLD_MAIN ?? '/work/wt-old/dist/apps/api/main.js';
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SECONDS = Number(process.env.SECONDS_PER ?? 3);
const profile = (name) =>
  process.env.PROFILE ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=/tmp/prof-${name}` } : {};

const stack = await startSpawnedStack('cmp');
const oldDb = `swap_bench_cmp_old_${randomBytes(3).toString('hex')}`;
await adminQuery(`CREATE DATABASE ${oldDb}`);
const apps = {
  old: await startApp(OLD_MAIN, 'PORT', {
    ...stack.env,
    ...profile('old'),
    DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${oldDb}`,
    REDIS_KEY_PREFIX: `${stack.env.REDIS_KEY_PREFIX}old:`,
  }),
  new: await startApp(API_MAIN, 'PORT', { ...stack.env, ...profile('new') }),
};
const requests = {};
for (const [name, app] of Object.entries(apps)) {
  const admin = new AdminClient(app.url, stack.adminToken);
  const org = await admin.organization(`cmp ${name}`);
  const creds = await seedCredentialSwaps(app.url, newSwapBody(), 100, () =>
    admin.credential(org),
  );
  requests[name] = creds.map((c) => ({
    path: `/v1/swaps/${c.swapId}`,
    headers: { authorization: c.authorization },
  }));
}
const figures = { old: [], new: [] };
for (let round = 0; round < ROUNDS; round += 1) {
  const order = round % 2 === 0 ? ['old', 'new'] : ['new', 'old'];
  for (const name of order) {
    const m = await measure(
      { name, baseUrl: apps[name].url, method: 'GET', requests: requests[name] },
      { connections: 32, durationSeconds: SECONDS, warmupSeconds: 1 },
    );
    figures[name].push(m);
    console.log(round + 1, name, Math.round(m.requestsPerSecond), m.p99Ms, 'non2xx', m.non2xx);
  }
}
for (const name of ['old', 'new']) {
  const rps = median(figures[name].map((m) => m.requestsPerSecond));
  const p99 = median(figures[name].map((m) => m.p99Ms));
  console.log(name, 'median req/s', Math.round(rps), 'p99', p99);
}
console.log(
  'new/old req/s',
  (
    median(figures.new.map((m) => m.requestsPerSecond)) /
    median(figures.old.map((m) => m.requestsPerSecond))
  ).toFixed(2),
);
await apps.old.stop();
await apps.new.stop();
await stack.close();
await adminQuery(`DROP DATABASE IF EXISTS ${oldDb} WITH (FORCE)`);
