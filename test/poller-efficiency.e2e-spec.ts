import { testApiEnv } from './support/api.js';
import { startHarness, type Harness } from './support/harness.js';
import {
  createSandboxTransactions,
  currentCycle,
  seedSwaps,
  seenSince,
} from './support/poller-fixtures.js';
import { spawnService, type ServiceProcess } from './support/processes.js';
import { waitUntil } from './support/wait.js';

const SWAPS = 300;
const POLL_INTERVAL_MS = 3000;

/** One provider call refreshes up to 100 swaps; changes are seen within a cycle. */
describe('Poller: refreshes per provider call', () => {
  let h: Harness;
  let poller: ServiceProcess;
  let organizationId: string;
  let transactionIds: string[];

  beforeAll(async () => {
    h = await startHarness({ sandbox: { stepMs: 60_000 } });
    organizationId = h.partner.organizationId;
    transactionIds = await createSandboxTransactions(h.sandbox, SWAPS);
    await seedSwaps(h.db, transactionIds, { organizationId });
    poller = await spawnService(
      'poller',
      testApiEnv({
        PROVIDER_URL: h.sandbox.url,
        POLL_INTERVAL_MS: String(POLL_INTERVAL_MS),
        POLLER_TICK_MS: '50',
      }),
    );
  }, 120_000);

  afterAll(async () => {
    await poller.stop();
    await h.close();
  });

  /** Waits for a cycle after `after` whose listing is over and that saw `active` swaps. */
  async function completeCycle(after: number, active: number): Promise<number> {
    let done = after;
    await waitUntil(
      `a cycle after ${after} to refresh ${active} swaps`,
      async () => {
        const cycle = await currentCycle(h.db);
        if (cycle.number <= after || !cycle.listingOver) {
          return false;
        }
        done = cycle.number;
        return (await seenSince(h.db, organizationId, cycle.startedAt)) === active;
      },
      20_000,
    );
    return done;
  }

  async function providerCalls(): Promise<number> {
    return (await h.sandbox.control.stats()).calls.getTransactions ?? 0;
  }

  async function statusesOf(ids: string[]): Promise<string[]> {
    const rows = await h.db.query<{ status: string }[]>(
      `SELECT status FROM swaps WHERE provider_transaction_id = ANY($1)`,
      [ids],
    );
    return [...new Set(rows.map((r) => r.status))];
  }

  it('refreshes every swap each cycle in at most 300/50 + changes/10 + 2 calls', async () => {
    const first = await completeCycle(0, SWAPS);
    const quiet = await providerCalls();
    const steady = await completeCycle(first, SWAPS);
    const steadyCalls = (await providerCalls()) - quiet;
    process.stdout.write(
      `poller, ${SWAPS} active swaps: ${steadyCalls} calls per cycle, ${(SWAPS / steadyCalls).toFixed(1)} refreshes per call\n`,
    );
    expect(steadyCalls).toBeLessThanOrEqual(SWAPS / 50 + 2);

    const [finished, failed, held] = [0, 5, 10].map((at) => transactionIds.slice(at, at + 5));
    for (const id of finished) {
      await h.sandbox.control.forceStatus(id, 'finished');
    }
    for (const id of failed) {
      await h.sandbox.control.forceStatus(id, 'failed');
    }
    for (const id of held) {
      await h.sandbox.control.forceStatus(id, 'hold');
    }
    const before = await providerCalls();
    // The ten that left the active statuses are asked for by id within the same cycle.
    const changed = await completeCycle(steady, SWAPS);
    const changedCalls = (await providerCalls()) - before;

    // Seen within the one cycle that followed the change.
    expect(await statusesOf(finished)).toEqual(['finished']);
    expect(await statusesOf(failed)).toEqual(['failed']);
    expect(await statusesOf(held)).toEqual(['hold']);
    expect(changed).toBe(steady + 1);
    expect(changedCalls).toBeLessThanOrEqual(SWAPS / 50 + 10 / 10 + 2);
  });
});
