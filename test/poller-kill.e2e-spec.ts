import request from 'supertest';
import type { TestPartner } from './factories/partners.js';
import { testApiEnv } from './support/api.js';
import { startHarness, type Harness } from './support/harness.js';
import { createSandboxTransactions, seedSwaps } from './support/poller-fixtures.js';
import { spawnService, type ServiceProcess } from './support/processes.js';
import { waitUntil } from './support/wait.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/** Two full pages of the listing and a short one. */
const SWAPS = 250;
/** Every listing call is answered this late: the kill lands while a page is asked for. */
const LISTING_DELAY_MS = 3000;

/**
 * A poller killed (SIGKILL) between two pages of its listing: the page it had stored is stored
 * whole (its swaps, their history, events and webhook deliveries, the page counted done) and the
 * page it was asking for left no trace; the next poller finishes the work, and no change is lost
 * or recorded twice.
 */
describe('Poller: killed between two pages of its listing', () => {
  let h: Harness;
  let receiver: WebhookReceiver;
  let partner: TestPartner;
  let organizationId: string;
  const pollers: ServiceProcess[] = [];

  const env = (overrides: Record<string, string>) =>
    testApiEnv({
      PROVIDER_URL: h.sandbox.url,
      PROVIDER_TIMEOUT_MS: '10000',
      POLLER_TICK_MS: '50',
      // Past the listing's answer, so the first poller holds its page; short, since the next
      // poller takes the killed one's page over once it has run out.
      POLLER_LEASE_MS: '5000',
      WEBHOOK_LEASE_MS: '3000',
      ...overrides,
    });

  beforeAll(async () => {
    h = await startHarness({ sandbox: { stepMs: 600_000 } });
    receiver = new WebhookReceiver();
    await receiver.start();
    partner = h.partner;
    organizationId = partner.organizationId;
    await request(h.api.url)
      .post('/v1/webhook_endpoints')
      .set('Authorization', partner.authorization)
      .send({ url: `${receiver.url}/hooks`, events: ['swap.status_changed'] })
      .expect(201);
    const transactions = await createSandboxTransactions(h.sandbox, SWAPS);
    await seedSwaps(h.db, transactions, { organizationId });
    for (const id of transactions) {
      await h.sandbox.control.forceStatus(id, 'confirming');
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all(pollers.map((poller) => poller.stop('SIGKILL')));
    await receiver?.close();
    await h?.close();
  });

  async function count(sql: string, values: unknown[] = [organizationId]): Promise<number> {
    const [row] = await h.db.query<{ count: number }[]>(sql, values);
    return row.count;
  }
  const confirming = () =>
    count(`SELECT count(*)::int AS count FROM swaps
            WHERE organization_id = $1 AND status = 'confirming'`);
  const history = () =>
    count(`SELECT count(*)::int AS count FROM swap_events h JOIN swaps s ON s.id = h.swap_id
            WHERE s.organization_id = $1`);
  const events = () =>
    count(`SELECT count(*)::int AS count FROM events
            WHERE organization_id = $1 AND type = 'swap.status_changed'`);
  const deliveries = () =>
    count(`SELECT count(*)::int AS count FROM webhook_deliveries d
             JOIN events e ON e.id = d.event_id WHERE e.organization_id = $1`);

  it('keeps the page it stored whole, and the next poller records each change once', async () => {
    await h.sandbox.control.setFault({
      method: 'getTransactions',
      mode: 'timeout',
      delayMs: LISTING_DELAY_MS,
      count: 20,
    });
    const first = await spawnService('poller', env({ POLL_INTERVAL_MS: '60000' }));
    pollers.push(first);
    await waitUntil(
      'the first page of the listing to be stored',
      async () =>
        (await count(`SELECT coalesce(max(pages_done), 0)::int AS count FROM poll_cycles`, [])) >=
        1,
      30_000,
      20,
    );
    await first.stop('SIGKILL');

    // One page stored whole, the next one not at all.
    expect(
      await count(`SELECT pages_done::int AS count FROM poll_cycles WHERE lane = 'live'`, []),
    ).toBe(1);
    expect([await confirming(), await history(), await events(), await deliveries()]).toEqual([
      100, 100, 100, 100,
    ]);

    await h.sandbox.control.clearFaults();
    const next = await spawnService('poller', env({ POLL_INTERVAL_MS: '2000' }));
    pollers.push(next);
    await waitUntil(
      'every swap to be confirming',
      async () => (await confirming()) === SWAPS,
      60_000,
    );
    await waitUntil(
      'every event to reach the receiver',
      () =>
        Promise.resolve(
          new Set(receiver.at('/hooks').map((r) => r.headers['webhook-id'])).size === SWAPS,
        ),
      60_000,
    );

    // Each change once: one history row, one event and one delivery per swap.
    expect([await history(), await events(), await deliveries()]).toEqual([SWAPS, SWAPS, SWAPS]);
    const perSwap = await h.db.query<{ swap_id: string; events: number }[]>(
      `SELECT swap_id, count(*)::int AS events FROM events
        WHERE organization_id = $1 GROUP BY swap_id HAVING count(*) <> 1`,
      [organizationId],
    );
    expect(perSwap).toEqual([]);
  }, 180_000);
});
