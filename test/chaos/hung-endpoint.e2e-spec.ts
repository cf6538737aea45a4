import type { TestPartner } from '../factories/partners.js';
import { startHarness, type Harness } from '../support/harness.js';
import { recordStatusChange, seedSwapView } from '../support/events.js';
import { waitUntil } from '../support/wait.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/** Events are recorded for this long, one per organization every `EVERY_MS`. */
const RUN_MS = 14_000;
const EVERY_MS = 100;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * One receiver hangs every request (the sender gives up after 10 s) while two healthy ones,
 * one of the same organization and one of another, get a steady stream of events. The hung
 * endpoint holds at most its own few slots, then its circuit opens and it holds none; the
 * healthy endpoints' deliveries stay fast.
 */
describe('Webhooks: one receiver hangs every request', () => {
  let h: Harness;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    await receiver.start();
    receiver.answer('/hung', 'hang');
    // The poller in this process delivers the webhooks; its swap ticks wait out the test.
    h = await startHarness({ localPoller: { POLL_INTERVAL_MS: '600000' } });
  }, 60_000);

  afterAll(async () => {
    // Closing the receiver first ends the hung requests, so the poller stops without waiting.
    await receiver.close();
    await h?.close();
  });

  async function endpoint(who: TestPartner, path: string): Promise<string> {
    const res = await h
      .post('/v1/webhook_endpoints', { url: `${receiver.url}${path}` }, who)
      .expect(201);
    return res.body.webhookEndpoint.id as string;
  }

  it('keeps the healthy endpoints under 2 s at p99 and stops sending to the hung one', async () => {
    const a = h.partner;
    const b = await h.newPartner();
    const hung = await endpoint(a, '/hung');
    await endpoint(a, '/a');
    await endpoint(b, '/b');
    const swaps = [
      { who: a, swap: await seedSwapView(h.db, h.api.url, a) },
      { who: b, swap: await seedSwapView(h.db, h.api.url, b) },
    ];

    let inFlightMax = 0;
    let circuitOpenedAt: number | null = null;
    let hungSeenWhenOpened = 0;
    const started = Date.now();
    let recorded = 0;
    while (Date.now() - started < RUN_MS) {
      for (const { who, swap } of swaps) {
        await recordStatusChange(h.api.app, who, swap);
      }
      recorded += 1;
      const [state] = await h.db.query<{ leased: number; open: boolean }[]>(
        `SELECT (SELECT count(*)::int FROM webhook_deliveries
                  WHERE endpoint_id = $1 AND status = 'pending' AND lease_owner IS NOT NULL
                    AND lease_expires_at > now()) AS leased,
                coalesce(circuit_open_until > now(), false) AS open
           FROM webhook_endpoints WHERE id = $1`,
        [hung],
      );
      inFlightMax = Math.max(inFlightMax, state.leased);
      if (state.open && circuitOpenedAt === null) {
        circuitOpenedAt = Date.now();
        hungSeenWhenOpened = receiver.at('/hung').length;
      }
      await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
    }

    await waitUntil(
      'every healthy delivery',
      () =>
        Promise.resolve(
          receiver.at('/a').length >= recorded && receiver.at('/b').length >= recorded,
        ),
      15_000,
      100,
    );
    const events = await h.db.query<{ id: string; created_at: Date }[]>(
      `SELECT id, created_at FROM events`,
    );
    const createdAt = new Map(events.map((e) => [e.id, e.created_at.getTime()]));
    const latencies = [...receiver.at('/a'), ...receiver.at('/b')].map(
      (r) => r.receivedAt - createdAt.get(String(r.headers['webhook-id']))!,
    );
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    process.stdout.write(
      `hung endpoint: ${latencies.length} healthy deliveries, p50 ${p50} ms, p99 ${p99} ms, ` +
        `max ${Math.max(...latencies)} ms; hung in flight max ${inFlightMax}, ` +
        `requests to it ${receiver.at('/hung').length}\n`,
    );
    expect(latencies).toHaveLength(2 * recorded);
    expect(p99).toBeLessThan(2000);
    // The hung endpoint never held more than its own share of the slots…
    expect(inFlightMax).toBeLessThanOrEqual(5);
    // …and once its timeouts opened the circuit, it got no request and held none.
    expect(circuitOpenedAt).not.toBeNull();
    expect(receiver.at('/hung').length).toBe(hungSeenWhenOpened);
    const [pending] = await h.db.query<{ pending: number; failed: number }[]>(
      `SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending,
              count(*) FILTER (WHERE status = 'failed')::int AS failed
         FROM webhook_deliveries WHERE endpoint_id = $1`,
      [hung],
    );
    expect(pending).toEqual({ pending: recorded, failed: 0 });
  }, 90_000);
});
