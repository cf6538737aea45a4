import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import pg from 'pg';
import { runMigrations } from '#app/persistence';
import { API_MAIN, rssMb, sleep, startApp, type AppProcess } from './apps.js';
import { adminQuery, deleteKeys } from './bench.environment.js';
import { measure, median, type LoadOptions, type LoadRequest, type Measurement } from './load.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
/** The Swaps page is read one request at a time: its latency is then the server's time. */
const PAGE_OPTIONS: LoadOptions = { connections: 1, durationSeconds: 3, warmupSeconds: 1 };
const READ_OPTIONS: LoadOptions = { connections: 4, durationSeconds: 3, warmupSeconds: 1 };
const PAGES_DEEP = 40;
/** Under the hash queue's bound (`HASH_QUEUE_LIMIT`, 16): a 17th hash at once is answered 503. */
const SIGN_INS = 12;
/**
 * Every measurement runs this many times in turn; the figures are the rounds' medians (and the
 * sign-in ratio is taken within each round), as load from elsewhere moves between rounds.
 */
const ROUNDS = 3;

export const DASHBOARD_TARGETS = {
  pageP99Ms: 50,
  exportGrowthMb: 50,
  signInP99Ratio: 3,
};

/** One scenario's rounds. */
export interface PageRounds {
  name: string;
  pages: number;
  rounds: Measurement[];
}

/** One round of swap reads: idle, then while owners sign in over and over. */
export interface ReadRound {
  idle: Measurement;
  duringSignIns: Measurement;
  signIns: number;
}

export interface DashboardMeasurement {
  swaps: number;
  pages: PageRounds[];
  export: { rows: number; bytes: number; seconds: number; rssBeforeMb: number; rssPeakMb: number };
  reads: ReadRound[];
  /** One-minute load averages when the measurements began and ended. */
  load: { before: number; after: number };
}

let clientAddress = 0;
/** A client address of its own for every request, as the load generator gives them. */
function nextAddress(): string {
  clientAddress += 1;
  return `172.16.${(clientAddress >> 8) & 255}.${clientAddress & 255}`;
}

/**
 * A `pending_review` organization made by the operator, and its owner joined by the invitation
 * the admin API issues, password chosen on the invitation's page: the organization's id.
 */
export async function organizationWithOwner(
  apiUrl: string,
  admin: Record<string, string>,
  name: string,
  owner: { email: string; password: string },
): Promise<string> {
  const created = await fetch(`${apiUrl}/admin/organizations`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ name, feePercent: '1', status: 'pending_review' }),
  });
  if (created.status !== 201) {
    throw new Error(`creating ${name} answered ${created.status}`);
  }
  const { organization } = (await created.json()) as { organization: { id: string } };
  const invited = await fetch(`${apiUrl}/admin/organizations/${organization.id}/invitations`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ email: owner.email, role: 'owner' }),
  });
  if (invited.status !== 201) {
    throw new Error(`inviting the owner of ${name} answered ${invited.status}`);
  }
  const { invitation } = (await invited.json()) as { invitation: { url: string } };
  const joined = await new Browser(apiUrl).post(new URL(invitation.url).pathname, {
    password: owner.password,
  });
  if (joined.status !== 303) {
    throw new Error(`accepting the invitation to ${name} answered ${joined.status}`);
  }
  return organization.id;
}

/** The operator approves an organization and activates its provider account. */
export async function approveOrganization(
  apiUrl: string,
  admin: Record<string, string>,
  organizationId: string,
): Promise<void> {
  const approved = await fetch(`${apiUrl}/admin/organizations/${organizationId}`, {
    method: 'PATCH',
    headers: admin,
    body: JSON.stringify({ status: 'active', providerActivated: true }),
  });
  if (!approved.ok) {
    throw new Error(`approval answered ${approved.status}`);
  }
}

/** A browser over fetch: keeps cookies, sends forms with the page's CSRF token and its origin. */
export class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly baseUrl: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }

  async get(path: string): Promise<{ status: number; text: string }> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      headers: { cookie: this.cookieHeader(), 'x-forwarded-for': nextAddress() },
      redirect: 'manual',
    });
    this.keep(res);
    return { status: res.status, text: await res.text() };
  }

  async post(
    path: string,
    fields: Record<string, string>,
  ): Promise<{ status: number; location: string | null }> {
    const page = await this.get(path);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    const res = await fetch(`${this.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        cookie: this.cookieHeader(),
        origin: this.baseUrl,
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': nextAddress(),
      },
      body: new URLSearchParams({ _csrf: csrf, ...fields }).toString(),
      redirect: 'manual',
    });
    this.keep(res);
    await res.arrayBuffer();
    return { status: res.status, location: res.headers.get('location') };
  }
}

/** 100,000 live swaps of one organization over 90 days: mostly finished, five pairs. */
async function seedSwaps(pool: pg.Pool, organizationId: string, count: number): Promise<void> {
  await pool.query(
    `INSERT INTO swaps (provider, id, organization_id, livemode, status, mode, from_ticker, to_ticker,
       amount_from, amount_expected_to, amount_actual_from, payin_address, payout_address,
       partner_reference_id, created_at, updated_at)
     SELECT 'changelly', substr(md5($1::text || n), 1, 16), $1::uuid, true,
            CASE WHEN n % 500 = 0 THEN 'hold'
                 ELSE (ARRAY['finished','finished','finished','waiting','expired','failed'])[1 + n % 6] END,
            'float', (ARRAY['btc','eth','ltc','trx','sol'])[1 + n % 5],
            (ARRAY['eth','btc','usdtrx','btc','eth'])[1 + n % 5], 0.1, 1.5,
            CASE WHEN n % 6 < 3 THEN 0.1 END,
            'bc1q' || md5('in' || n), '0x' || substr(md5('out' || n) || md5(n::text), 1, 40),
            CASE WHEN n % 10 = 0 THEN 'order-' || n END,
            now() - (90.0 * n / $2) * interval '1 day', now()
       FROM generate_series(1, $2) AS n`,
    [organizationId, count],
  );
  await pool.query('ANALYZE swaps');
}

/** The paths of the first `deep` pages of a list, following its "Next" links. */
async function pagePaths(browser: Browser, first: string, deep: number): Promise<string[]> {
  const paths = [first];
  for (let i = 1; i < deep; i += 1) {
    const page = await browser.get(paths[paths.length - 1]);
    const next = /<a href="([^"]+)" rel="next">/.exec(page.text)?.[1];
    if (!next) {
      break;
    }
    paths.push(next.replaceAll('&amp;', '&'));
  }
  return paths;
}

/** Downloads the export while sampling the api's resident memory every 10 ms. */
async function measureExport(
  api: AppProcess,
  browser: Browser,
): Promise<DashboardMeasurement['export']> {
  const pid = api.process.pid ?? 0;
  const download = async (path: string): Promise<{ rows: number; bytes: number }> => {
    const res = await fetch(`${api.url}${path}`, {
      headers: { cookie: browser.cookieHeader(), 'x-forwarded-for': nextAddress() },
    });
    if (res.status !== 200 || !res.body) {
      throw new Error(`export answered ${res.status}`);
    }
    let rows = 0;
    let bytes = 0;
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      for (const byte of chunk) {
        if (byte === 10) {
          rows += 1;
        }
      }
    }
    return { rows, bytes };
  };
  // One small export first, so code loaded for the first one is not counted as growth.
  await download('/partner/swaps/export?status=hold');
  await sleep(500);
  const rssBeforeMb = rssMb(pid);
  let rssPeakMb = rssBeforeMb;
  const sampler = setInterval(() => {
    rssPeakMb = Math.max(rssPeakMb, rssMb(pid));
  }, 10);
  const started = Date.now();
  try {
    const { rows, bytes } = await download('/partner/swaps/export');
    rssPeakMb = Math.max(rssPeakMb, rssMb(pid));
    return { rows, bytes, seconds: (Date.now() - started) / 1000, rssBeforeMb, rssPeakMb };
  } finally {
    clearInterval(sampler);
  }
}

/** `count` owners signing in one after another, each as its own loop, until `until` says so. */
async function signInLoops(
  apiUrl: string,
  owners: { email: string; password: string }[],
  running: () => boolean,
): Promise<number> {
  let done = 0;
  await Promise.all(
    owners.map(async (owner) => {
      while (running()) {
        const browser = new Browser(apiUrl);
        const res = await browser.post('/partner/login', owner);
        if (res.status !== 303) {
          throw new Error(`sign-in answered ${res.status}`);
        }
        done += 1;
      }
    }),
  );
  return done;
}

/**
 * The dashboard's figures: the Swaps page of an organization with `swaps` swaps, filtered and
 * not; a full CSV export and the api's memory meanwhile; a swap read while 12 people sign in.
 * The api runs as its own process (the production entry point) on a database of its own.
 */
export async function measureDashboard(swaps: number): Promise<DashboardMeasurement> {
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const database = `swap_bench_dash_${runId}`;
  const redisPrefix = `bench:${runId}:`;
  await adminQuery(`CREATE DATABASE ${database}`);
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${database}`;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  let api: AppProcess | undefined;
  try {
    await runMigrations(databaseUrl);
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const adminToken = randomBytes(24).toString('hex');
    api = await startApp(API_MAIN, 'PORT', {
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      REDIS_KEY_PREFIX: redisPrefix,
      PROVIDER_URL: 'http://127.0.0.1:9/v2',
      PROVIDER_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      ADMIN_TOKEN: adminToken,
      CREDENTIAL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      TRUST_PROXY_HOPS: '1',
      APP_ENV: 'bench',
      LOG_LEVEL: 'info',
    });
    const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };

    // Each owner joins an organization of their own by the operator's invitation.
    const owners = Array.from({ length: SIGN_INS + 1 }, (_, i) => ({
      email: `owner-${i}-${runId}@bench.example`,
      password: `Bench-${randomBytes(12).toString('hex')}`,
    }));
    const organizations: string[] = [];
    for (const [i, owner] of owners.entries()) {
      organizations.push(await organizationWithOwner(api.url, admin, `Bench org ${i}`, owner));
    }
    const organizationId = organizations[0];
    await approveOrganization(api.url, admin, organizationId);
    const issued = await fetch(`${api.url}/admin/organizations/${organizationId}/credentials`, {
      method: 'POST',
      headers: admin,
      body: '{}',
    });
    const { credential } = (await issued.json()) as {
      credential: { publicKey: string; secret: string };
    };
    await seedSwaps(pool, organizationId, swaps);
    const { rows: sample } = await pool.query<{ id: string }>(
      'SELECT id FROM swaps WHERE organization_id = $1 ORDER BY id LIMIT 300',
      [organizationId],
    );

    const browser = new Browser(api.url);
    const signedIn = await browser.post('/partner/login', owners[0]);
    if (signedIn.status !== 303) {
      throw new Error(`sign-in answered ${signedIn.status}`);
    }
    const cookie = browser.cookieHeader();
    const loadBefore = loadavg()[0];
    const scenarios: { name: string; paths: string[] }[] = [];
    for (const [name, first] of [
      ['Swaps page, unfiltered', '/partner/swaps'],
      ['Swaps page, status finished', '/partner/swaps?status=finished'],
      ['Swaps page, status hold (1 in 500)', '/partner/swaps?status=hold'],
      [
        'Swaps page, pair and the last 30 days',
        `/partner/swaps?pair=ltc%3Ausdtrx&createdFrom=${new Date(Date.now() - 30 * 86_400_000)
          .toISOString()
          .slice(0, 10)}`,
      ],
      ['Swaps page, search by reference', '/partner/swaps?q=order-5000'],
    ]) {
      scenarios.push({ name, paths: await pagePaths(browser, first, PAGES_DEEP) });
    }
    const pages: PageRounds[] = scenarios.map((s) => ({
      name: s.name,
      pages: s.paths.length,
      rounds: [],
    }));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [i, scenario] of scenarios.entries()) {
        const requests: LoadRequest[] = scenario.paths.map((path) => ({
          path,
          headers: { cookie },
        }));
        pages[i].rounds.push(
          await measure(
            { name: scenario.name, baseUrl: api.url, method: 'GET', requests },
            PAGE_OPTIONS,
          ),
        );
      }
    }

    const exported = await measureExport(api, browser);

    const read = {
      name: 'GET /v1/swaps/{id}',
      baseUrl: api.url,
      method: 'GET' as const,
      requests: sample.map((row) => ({
        path: `/v1/swaps/${row.id}`,
        headers: { authorization: `Bearer ${credential.publicKey}:${credential.secret}` },
      })),
    };
    const reads: ReadRound[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const idle = await measure(read, READ_OPTIONS);
      let running = true;
      const signIns = signInLoops(api.url, owners.slice(1), () => running);
      const duringSignIns = await measure(read, READ_OPTIONS);
      running = false;
      reads.push({ idle, duringSignIns, signIns: await signIns });
    }

    return {
      swaps,
      pages,
      export: exported,
      reads,
      load: { before: loadBefore, after: loadavg()[0] },
    };
  } finally {
    await api?.stop();
    await pool.end();
    await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await deleteKeys(redisPrefix);
  }
}

/** The results section `bench/results.md` keeps between its markers. */
export function dashboardSection(m: DashboardMeasurement): string[] {
  const t = DASHBOARD_TARGETS;
  const p99 = (p: PageRounds): number => median(p.rounds.map((r) => r.p99Ms));
  const worstPage = Math.max(...m.pages.map(p99));
  const growth = m.export.rssPeakMb - m.export.rssBeforeMb;
  const ratios = m.reads.map((r) => r.duringSignIns.p99Ms / Math.max(1, r.idle.p99Ms));
  const ratio = median(ratios);
  const verdict = (met: boolean): string => (met ? 'met' : 'MISSED');
  const window = READ_OPTIONS.warmupSeconds + READ_OPTIONS.durationSeconds;
  return [
    '## Dashboard',
    '',
    'The api as its own process (`node dist/apps/api/main.js`, logs at info), one organization',
    `with ${m.swaps.toLocaleString('en-US')} live swaps, an owner signed in. Pages are read one`,
    `request at a time (autocannon, 1 connection, ${PAGE_OPTIONS.warmupSeconds} s warm-up then`,
    `${PAGE_OPTIONS.durationSeconds} s), rotating over the first pages of each list (up to`,
    `${PAGES_DEEP}) as its "Next" links reach them: on loopback the latency is the server's time.`,
    `${ROUNDS} rounds of everything in turn; figures are the rounds' medians. Load average`,
    `${m.load.before.toFixed(1)} when the measurements began, ${m.load.after.toFixed(1)} when they ended.`,
    '',
    '| scenario | pages | req/s | p50 ms | p99 ms | p99 per round | non-2xx |',
    '|---|---:|---:|---:|---:|---|---:|',
    ...m.pages.map(
      (p) =>
        `| ${p.name} | ${p.pages} | ${median(p.rounds.map((r) => r.requestsPerSecond)).toFixed(0)} | ` +
        `${median(p.rounds.map((r) => r.p50Ms))} | ${p99(p)} | ` +
        `${p.rounds.map((r) => r.p99Ms).join(', ')} | ${p.rounds.reduce((n, r) => n + r.non2xx, 0)} |`,
    ),
    '',
    `CSV export of all ${m.swaps.toLocaleString('en-US')} swaps: ${m.export.rows.toLocaleString('en-US')} lines ` +
      `(header included), ${(m.export.bytes / 2 ** 20).toFixed(1)} MiB in ${m.export.seconds.toFixed(1)} s; ` +
      `the api's resident memory ${m.export.rssBeforeMb.toFixed(0)} MB before, ` +
      `${m.export.rssPeakMb.toFixed(0)} MB at most during it (sampled every 10 ms).`,
    '',
    `Swap reads (\`GET /v1/swaps/{id}\`, ${READ_OPTIONS.connections} connections), idle and while ` +
      `${SIGN_INS} owners sign in over and over (argon2id), per round:`,
    '',
    '| round | idle p99 ms | during sign-ins p99 ms | ratio | sign-ins |',
    '|---:|---:|---:|---:|---:|',
    ...m.reads.map(
      (r, i) =>
        `| ${i + 1} | ${r.idle.p99Ms} | ${r.duringSignIns.p99Ms} | ${ratios[i].toFixed(2)} | ` +
        `${r.signIns} in ${window} s |`,
    ),
    '',
    `- Swaps page p99 < ${t.pageP99Ms} ms (worst scenario ${worstPage} ms) — **${verdict(worstPage < t.pageP99Ms)}**`,
    `- CSV export of ${m.swaps.toLocaleString('en-US')}: api memory growth < ${t.exportGrowthMb} MB ` +
      `(${growth.toFixed(1)} MB) — **${verdict(growth < t.exportGrowthMb)}**`,
    `- Swap read p99 during ${SIGN_INS} sign-ins < ${t.signInP99Ratio} × idle ` +
      `(median ${ratio.toFixed(2)} ×) — **${verdict(ratio < t.signInP99Ratio)}**`,
  ];
}
