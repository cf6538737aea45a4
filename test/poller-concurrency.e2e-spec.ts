import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { generateAddress } from '#app/chains';
import { ChangellyAdapter } from '#app/provider';
import { testApiEnv } from './support/api.js';
import { openTestDataSource, truncateAll } from './support/database.js';
import { spawnService, type ServiceProcess } from './support/processes.js';
import { startTestSandbox, testProviderConfig, type TestSandbox } from './support/sandbox.js';
import { waitUntil } from './support/wait.js';

const random = (n: number): Uint8Array => randomBytes(n);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Long enough that a polled swap is never due again within a test: each cycle is explicit. */
const POLL_INTERVAL_MS = '60000';

describe('Poller: several pollers, leases and a killed poller', () => {
  let sandbox: TestSandbox;
  let db: DataSource;
  /** Real sandbox transaction ids, created once through the adapter. */
  let transactionIds: string[];

  beforeAll(async () => {
    await truncateAll();
    sandbox = await startTestSandbox({ stepMs: 60_000 });
    db = await openTestDataSource();
    const adapter = new ChangellyAdapter(testProviderConfig(sandbox.url));
    transactionIds = [];
    for (let i = 0; i < 560; i += 20) {
      const created = await Promise.all(
        Array.from({ length: 20 }, () =>
          adapter.createTransaction({
            from: 'btc',
            to: 'eth',
            amountFrom: '0.1',
            address: generateAddress('ethereum', random),
          }),
        ),
      );
      transactionIds.push(...created.map((tx) => tx.id));
    }
  });

  afterAll(async () => {
    await db.destroy();
    await sandbox.close();
  });

  /** An organization and one waiting swap per provider transaction, not yet due. */
  async function seedSwaps(providerIds: string[]): Promise<string> {
    const [org] = await db.query<{ id: string }[]>(
      `INSERT INTO organizations (name, fee_percent, status, provider_activated)
       VALUES ($1, '0', 'active', true) RETURNING id`,
      [`poller org ${randomBytes(4).toString('hex')}`],
    );
    await db.query(
      `INSERT INTO swaps (id, organization_id, provider_transaction_id, status, mode, from_ticker,
         to_ticker, amount_from, amount_expected_to, payin_address, payout_address, next_poll_at)
       SELECT substr(md5(random()::text || tx), 1, 16), $1, tx, 'waiting', 'float', 'btc', 'eth', 0.1, 2,
              'payin-' || tx, 'payout-' || tx, now() + interval '1 hour'
         FROM unnest($2::text[]) AS tx`,
      [org.id, providerIds],
    );
    return org.id;
  }

  /** Makes every swap of the org due now (one interval has passed); answers the database time. */
  async function makeDue(organizationId: string): Promise<Date> {
    const [row] = await db.query<{ now: Date }[]>(`SELECT now() AS now`);
    await db.query(`UPDATE swaps SET next_poll_at = $2 WHERE organization_id = $1`, [
      organizationId,
      row.now,
    ]);
    return row.now;
  }

  /** Swaps of the org polled since `since` and no longer leased. */
  async function polledSince(organizationId: string, since: Date): Promise<number> {
    const [row] = await db.query<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM swaps
        WHERE organization_id = $1 AND next_poll_at > $2::timestamptz + interval '30 seconds'
          AND lease_owner IS NULL`,
      [organizationId, since],
    );
    return row.count;
  }

  function pollerEnv(overrides: Record<string, string> = {}): Record<string, string | undefined> {
    return testApiEnv({
      PROVIDER_URL: sandbox.url,
      POLL_INTERVAL_MS,
      POLLER_TICK_MS: '50',
      POLLER_BATCH_SIZE: '50',
      POLLER_HEALTH_PORT: '0',
      ...overrides,
    });
  }

  describe('three poller processes', () => {
    const SWAPS = 500;
    const CYCLES = 3;
    let pollers: ServiceProcess[];
    let organizationId: string;

    beforeAll(async () => {
      organizationId = await seedSwaps(transactionIds.slice(0, SWAPS));
      pollers = await Promise.all([1, 2, 3].map(() => spawnService('poller', pollerEnv())));
    });

    afterAll(async () => {
      await Promise.all(pollers.map((p) => p.stop()));
    });

    /** `poller_swaps_polled_total` as the poller at `url` reports it on `/metrics`. */
    async function swapsPolledBy(url: string): Promise<number> {
      const text = await (await fetch(`${url}/metrics`)).text();
      const match = /^poller_swaps_polled_total (\d+)$/m.exec(text);
      return match ? Number(match[1]) : 0;
    }

    it('poll every due swap exactly once per cycle, at most 10 ids per provider call', async () => {
      const startedAt = Date.now();
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        const before = (await sandbox.control.stats()).getTransactions;
        const dueAt = await makeDue(organizationId);

        await waitUntil(
          `cycle ${cycle}`,
          async () => (await polledSince(organizationId, dueAt)) === SWAPS,
          // 50 calls at 10/s take about 5 s; the margin is for a loaded machine.
          30000,
        );
        // Nothing may still be in flight that would poll a swap a second time.
        await sleep(300);

        const after = (await sandbox.control.stats()).getTransactions;
        const callsThisCycle = after.idsPerCall.slice(before.idsPerCall.length);
        expect(after.idsRequested - before.idsRequested).toBe(SWAPS);
        expect(Math.max(...callsThisCycle)).toBeLessThanOrEqual(10);
        expect(callsThisCycle.reduce((a, b) => a + b, 0)).toBe(SWAPS);
        expect(await polledSince(organizationId, dueAt)).toBe(SWAPS);
      }
      // Three pollers together stay within the shared upstream cap of 10 calls per second.
      const seconds = (await sandbox.control.stats()).perSecond.filter(
        (bucket) => bucket.second * 1000 >= startedAt,
      );
      expect(Math.max(...seconds.map((b) => b.methods.getTransactions ?? 0))).toBeLessThanOrEqual(
        10,
      );
      // Every process took a share, and together they polled each swap once per cycle.
      const shares = await Promise.all(pollers.map((p) => swapsPolledBy(p.url)));
      expect(shares.every((share) => share > 0)).toBe(true);
      expect(shares.reduce((a, b) => a + b, 0)).toBe(SWAPS * CYCLES);
    });
  });

  describe('a poller process', () => {
    let organizationId: string;
    let running: ServiceProcess | null = null;

    beforeAll(async () => {
      organizationId = await seedSwaps(transactionIds.slice(500, 530));
    });

    afterEach(async () => {
      await sandbox.control.clearFaults();
      await running?.stop('SIGKILL');
      running = null;
    });

    async function spawnPoller(env: Record<string, string>): Promise<ServiceProcess> {
      running = await spawnService('poller', pollerEnv(env));
      return running;
    }

    /** Waits for the poller to lease `count` swaps; a poller that died says why. */
    async function claimedBy(sut: ServiceProcess, count: number): Promise<void> {
      await waitUntil('the poller to claim', async () => {
        if (sut.child.exitCode !== null) {
          throw new Error(`the poller exited with ${sut.child.exitCode}: ${sut.output()}`);
        }
        return (await leasedBy(sut.child.pid!)).length === count;
      });
    }

    async function leasedBy(pid: number): Promise<{ id: string; lease_until: Date }[]> {
      return db.query<{ id: string; lease_until: Date }[]>(
        `SELECT id, lease_until FROM swaps WHERE organization_id = $1 AND lease_owner LIKE $2`,
        [organizationId, `%:${pid}:%`],
      );
    }

    it('killed mid-batch loses no swap: its leases expire and another poller takes them', async () => {
      // Every answer is held back, so the poller is inside its first provider call when killed.
      await sandbox.control.setFault({
        method: 'getTransactions',
        mode: 'timeout',
        delayMs: 20_000,
        count: 100,
      });
      const dueAt = await makeDue(organizationId);
      const sut = await spawnPoller({ POLLER_LEASE_MS: '2000', PROVIDER_TIMEOUT_MS: '15000' });
      const pid = sut.child.pid!;
      await claimedBy(sut, 30);
      await waitUntil(
        'the poller to call the provider',
        async () => (await sandbox.control.stats()).getTransactions.calls > 0,
      );

      await sut.stop('SIGKILL');
      const orphaned = await leasedBy(pid);
      expect(orphaned).toHaveLength(30);
      await sandbox.control.clearFaults();
      const rescuer = await spawnService('poller', pollerEnv());
      try {
        await waitUntil('every orphaned swap to be polled', async () => {
          return (await polledSince(organizationId, dueAt)) === 30;
        });
      } finally {
        await rescuer.stop();
      }

      const leaseEnd = Math.min(...orphaned.map((s) => s.lease_until.getTime()));
      const [written] = await db.query<{ first: Date }[]>(
        `SELECT min(updated_at) AS first FROM swaps WHERE organization_id = $1`,
        [organizationId],
      );
      expect(written.first.getTime()).toBeGreaterThanOrEqual(leaseEnd);
      expect(await leasedBy(pid)).toHaveLength(0);
    });

    it('on SIGTERM finishes the batch in flight, claims no more and releases its leases', async () => {
      await sandbox.control.setFault({
        method: 'getTransactions',
        mode: 'timeout',
        delayMs: 1500,
        count: 1,
      });
      const dueAt = await makeDue(organizationId);
      const sut = await spawnPoller({ POLLER_LEASE_MS: '10000', POLLER_BATCH_SIZE: '10' });
      const pid = sut.child.pid!;
      await claimedBy(sut, 10);

      await sut.stop('SIGTERM');

      expect(await leasedBy(pid)).toHaveLength(0);
      expect(await polledSince(organizationId, dueAt)).toBe(10);
      const [waiting] = await db.query<{ count: number }[]>(
        `SELECT count(*)::int AS count FROM swaps
          WHERE organization_id = $1 AND next_poll_at <= $2::timestamptz AND lease_owner IS NULL`,
        [organizationId, dueAt],
      );
      expect(waiting.count).toBe(20);
    });
  });
});
