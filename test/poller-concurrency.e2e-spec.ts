import { ADMIN_HEADERS, testApiEnv } from './support/api.js';
import { startHarness, type Harness } from './support/harness.js';
import { spawnService, spawnServices, type ServiceProcess } from './support/processes.js';
import {
  createSandboxTransactions,
  currentCycle,
  seedSwaps,
  seenSince as seenSinceOf,
} from './support/poller-fixtures.js';
import { waitUntil } from './support/wait.js';

/** Long enough that each cycle's listing (a few pages) ends well before the next cycle starts. */
const POLL_INTERVAL_MS = 3000;
const LIST_PAGE = 100;

describe('Poller: several pollers, leases and a killed poller', () => {
  let h: Harness;
  /** Real sandbox transaction ids, created once through the adapter. */
  let transactionIds: string[];

  beforeAll(async () => {
    h = await startHarness({ sandbox: { stepMs: 60_000 } });
    transactionIds = await createSandboxTransactions(h.sandbox, 560);
  });

  afterAll(async () => {
    await h.close();
  });

  const cycle = () => currentCycle(h.db);
  const seenSince = (organizationId: string, since: Date) =>
    seenSinceOf(h.db, organizationId, since);

  function pollerEnv(overrides: Record<string, string> = {}): Record<string, string | undefined> {
    return testApiEnv({
      PROVIDER_URL: h.sandbox.url,
      POLL_INTERVAL_MS: String(POLL_INTERVAL_MS),
      POLLER_TICK_MS: '50',
      POLLER_BATCH_SIZE: '50',
      POLLER_HEALTH_PORT: '0',
      ...overrides,
    });
  }

  describe('three poller processes', () => {
    const SWAPS = 500;
    const CYCLES = 3;
    let pollers: ServiceProcess[] = [];
    let organizationId: string;

    beforeAll(async () => {
      organizationId = h.partner.organizationId;
      await seedSwaps(h.db, transactionIds.slice(0, SWAPS), { organizationId });
      pollers = await spawnServices('poller', [pollerEnv(), pollerEnv(), pollerEnv()]);
    }, 120_000);

    afterAll(async () => {
      await Promise.all(pollers.map((p) => p.stop()));
    });

    /** `poller_swaps_polled_total` as the poller at `url` reports it on `/metrics`. */
    async function swapsPolledBy(url: string): Promise<number> {
      const text = await (await fetch(`${url}/metrics`, { headers: ADMIN_HEADERS })).text();
      const match = /^poller_swaps_polled_total (\d+)$/m.exec(text);
      return match ? Number(match[1]) : 0;
    }

    it('share each cycle: every swap refreshed once, no listing page asked twice', async () => {
      const startedAt = Date.now();
      let done = 0;
      for (let seen = 0; seen < CYCLES; seen += 1) {
        await waitUntil(
          `cycle ${done + 1} to list every swap`,
          async () => {
            const now = await cycle();
            if (now.number <= done || !now.listingOver) {
              return false;
            }
            if ((await seenSince(organizationId, now.startedAt)) !== SWAPS) {
              return false;
            }
            done = now.number;
            return true;
          },
          // A few listing pages per cycle; the margin is for a loaded machine.
          30000,
        );
      }
      // Read between two cycles: what the pollers polled adds up to whole cycles.
      const shares = await Promise.all(pollers.map((p) => swapsPolledBy(p.url)));
      expect((await cycle()).number).toBe(done);
      expect(shares.reduce((a, b) => a + b, 0)).toBe(SWAPS * done);
      // The pollers share the pages.
      expect(shares.filter((share) => share > 0).length).toBeGreaterThanOrEqual(2);

      const { getTransactions, perSecond } = await h.sandbox.control.stats();
      const pagesPerCycle = Math.floor(SWAPS / LIST_PAGE) + 1;
      // No page is asked twice in a cycle: each offset of the listing exactly once per cycle.
      // Pollers that claim pages at once may each ask one past the end before it is known.
      for (let offset = 0; offset < pagesPerCycle * LIST_PAGE; offset += LIST_PAGE) {
        expect(getTransactions.listingOffsets.filter((o) => o === offset)).toHaveLength(done);
      }
      expect(getTransactions.listingOffsets.length).toBeLessThanOrEqual(
        (pagesPerCycle + pollers.length - 1) * done,
      );
      // Nothing changed, so nothing was asked for by id.
      expect(getTransactions.idsRequested).toBe(0);
      // Three pollers together stay within the shared upstream cap of 10 calls per second.
      const seconds = perSecond.filter((bucket) => bucket.second * 1000 >= startedAt);
      expect(Math.max(...seconds.map((b) => b.methods.getTransactions ?? 0))).toBeLessThanOrEqual(
        10,
      );
    });
  });

  describe('a poller process', () => {
    let organizationId: string;
    let running: ServiceProcess | null = null;

    beforeAll(async () => {
      // Only this block's swaps are left to refresh, in a cycle of their own.
      await h.db.query(`UPDATE swaps SET status = 'finished', next_poll_at = NULL`);
      organizationId = (await h.newPartner()).organizationId;
      await seedSwaps(h.db, transactionIds.slice(500, 530), { organizationId });
    });

    beforeEach(async () => {
      await h.db.query(`DELETE FROM poll_cycles`);
    });

    afterEach(async () => {
      await h.sandbox.control.clearFaults();
      await running?.stop('SIGKILL');
      running = null;
    });

    async function spawnPoller(env: Record<string, string>): Promise<ServiceProcess> {
      running = await spawnService('poller', pollerEnv(env));
      return running;
    }

    async function listingCalls(): Promise<number> {
      return (await h.sandbox.control.stats()).getTransactions.listingOffsets.length;
    }

    /** Waits until the poller is inside a listing call; a poller that died says why. */
    async function listing(sut: ServiceProcess, before: number): Promise<void> {
      await waitUntil('the poller to ask for a page', async () => {
        if (sut.child.exitCode !== null) {
          throw new Error(`the poller exited with ${sut.child.exitCode}: ${sut.output()}`);
        }
        return (await listingCalls()) > before;
      });
    }

    it('killed holding a page loses no swap: another takes them over once its lease runs out', async () => {
      // Every answer is held back, so the poller is inside its first provider call when killed.
      await h.sandbox.control.setFault({
        method: 'getTransactions',
        mode: 'timeout',
        delayMs: 20_000,
        count: 100,
      });
      const before = await listingCalls();
      const sut = await spawnPoller({ POLLER_LEASE_MS: '2000', PROVIDER_TIMEOUT_MS: '15000' });
      await listing(sut, before);
      const { startedAt } = await cycle();

      await sut.stop('SIGKILL');
      await h.sandbox.control.clearFaults();
      const rescuer = await spawnService('poller', pollerEnv({ POLLER_LEASE_MS: '2000' }));
      try {
        await waitUntil('every swap of the dead poller to be refreshed', async () => {
          return (await seenSince(organizationId, startedAt)) === 30;
        });
      } finally {
        await rescuer.stop();
      }

      // Taken over by id or by a new listing, but never before the dead poller's lease ran out.
      const [first] = await h.db.query<{ at: Date }[]>(
        `SELECT min(last_seen_at) AS at FROM swaps WHERE organization_id = $1`,
        [organizationId],
      );
      expect(first.at.getTime()).toBeGreaterThanOrEqual(startedAt.getTime() + 2000);
    });

    it('on SIGTERM finishes the page in flight, asks for no more and holds no lease', async () => {
      await h.sandbox.control.setFault({
        method: 'getTransactions',
        mode: 'timeout',
        delayMs: 1500,
        count: 1,
      });
      const before = await listingCalls();
      const sut = await spawnPoller({ POLLER_LEASE_MS: '10000', PROVIDER_TIMEOUT_MS: '5000' });
      await listing(sut, before);
      const { startedAt } = await cycle();

      await sut.stop('SIGTERM');

      expect(await seenSince(organizationId, startedAt)).toBe(30);
      expect(await listingCalls()).toBe(before + 1);
      const [leased] = await h.db.query<{ count: number }[]>(
        `SELECT count(*)::int AS count FROM swaps WHERE lease_owner IS NOT NULL`,
      );
      expect(leased.count).toBe(0);
    });
  });
});
