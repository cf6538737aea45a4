import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { EventRecorder, type PartnerEvent } from '#app/events';
import type { SwapView } from '#app/swaps';
import { issueCredential, type TestPartner } from './factories/partners.js';
import { startHarness, type Harness } from './support/harness.js';
import { pacer, waitUntil } from './support/wait.js';

const EVENT_ID = /^evt_[0-9a-f]{24}$/;

/**
 * Events (docs/decisions.md, "The event feed"): a swap's history, the feed, its paging under
 * concurrent writes, and the separation of organizations and modes. A test sandbox with short steps
 * and a poller in this process move test swaps in seconds.
 */
describe('Events', () => {
  let h: Harness;
  let tester: TestPartner;

  beforeAll(async () => {
    h = await startHarness({
      sandbox: { stepMs: 300 },
      partner: { mode: 'test' },
      localPoller: { POLL_INTERVAL_MS: '60000' },
    });
    tester = h.partner;
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  const get = (who: TestPartner, path: string) =>
    request(h.api.url).get(path).set('Authorization', who.authorization);

  async function createTestSwap(who: TestPartner): Promise<SwapView> {
    const addresses = await get(who, '/v1/test_helpers/addresses?currency=eth').expect(200);
    const res = await request(h.api.url)
      .post('/v1/swaps')
      .set('Authorization', who.authorization)
      .set('Idempotency-Key', randomUUID())
      .send({ from: 'btc', to: 'eth', amountFrom: '0.1', address: addresses.body.addresses[0] })
      .expect(201);
    return res.body.swap as SwapView;
  }

  /** Every event of the feed, paged with `after` until `hasMore` is false. */
  async function readFeed(who: TestPartner, limit = 200, query = ''): Promise<PartnerEvent[]> {
    const events: PartnerEvent[] = [];
    for (let after = ''; ;) {
      const res = await get(who, `/v1/events?limit=${limit}${after}${query}`).expect(200);
      events.push(...(res.body.events as PartnerEvent[]));
      if (!res.body.hasMore) {
        return events;
      }
      after = `&after=${events[events.length - 1].id}`;
    }
  }

  describe('a test swap driven to finished', () => {
    let swap: SwapView;
    let history: PartnerEvent[];

    beforeAll(async () => {
      swap = await createTestSwap(tester);
      await request(h.api.url)
        .post(`/v1/test_helpers/swaps/${swap.id}/deposit`)
        .set('Authorization', tester.authorization)
        .send({})
        .expect(200);
      await waitUntil(
        `swap ${swap.id} to finish`,
        async () => (await get(tester, `/v1/swaps/${swap.id}`)).body.swap.status === 'finished',
        20_000,
        100,
      );
      history = (await get(tester, `/v1/swaps/${swap.id}/events`).expect(200)).body.events;
    }, 40_000);

    it('has a history that starts with swap.created and chains every transition to finished', async () => {
      expect(history[0]).toMatchObject({
        type: 'swap.created',
        livemode: false,
        data: { previousStatus: null, swap: { ...swap } },
      });
      expect(history.slice(1).every((e) => e.type === 'swap.status_changed')).toBe(true);
      for (let i = 1; i < history.length; i += 1) {
        expect(history[i].data.previousStatus).toBe(history[i - 1].data.swap.status);
        expect(history[i].data.swap.status).not.toBe(history[i - 1].data.swap.status);
      }
      const current = (await get(tester, `/v1/swaps/${swap.id}`).expect(200)).body.swap;
      expect(history[history.length - 1].data.swap).toEqual(current);
      expect(current.status).toBe('finished');
      expect(history.length).toBeGreaterThanOrEqual(2);
      for (const event of history) {
        expect(event.id).toMatch(EVENT_ID);
        expect(Object.keys(event)).toEqual(['id', 'type', 'createdAt', 'livemode', 'data']);
        expect(Object.keys(event.data.swap)).toEqual(Object.keys(current));
      }
      const times = history.map((e) => Date.parse(e.createdAt));
      expect([...times].sort((a, b) => a - b)).toEqual(times);
    });

    it('writes one event per stored transition, as the swap history records it', async () => {
      const [{ count }] = await h.db.query<{ count: number }[]>(
        `SELECT count(*)::int AS count FROM swap_events WHERE swap_id = $1`,
        [swap.id],
      );
      expect(history.length).toBe(count + 1);
    });

    it('shows the same events in the feed, in the same order', async () => {
      let ofSwap: PartnerEvent[] = [];
      await waitUntil(
        'the feed to show the whole history',
        async () => {
          ofSwap = (await readFeed(tester)).filter((e) => e.data.swap.id === swap.id);
          return ofSwap.length === history.length;
        },
        10_000,
        100,
      );
      expect(ofSwap).toEqual(history);
      const changes = await readFeed(tester, 200, '&type=swap.status_changed');
      expect(changes.filter((e) => e.data.swap.id === swap.id)).toEqual(history.slice(1));
    });

    it('keeps the history and the feed from the live mode and other organizations', async () => {
      const live = await issueCredential(h.api.app, tester, 'live');
      const stranger = await h.newPartner({ mode: 'test' });
      for (const who of [live, stranger]) {
        const res = await get(who, `/v1/swaps/${swap.id}/events`).expect(404);
        expect(res.body.error).toMatchObject({ code: 'not_found' });
        const feed = await readFeed(who);
        expect(feed.filter((e) => e.data.swap.id === swap.id)).toEqual([]);
        const after = await get(who, `/v1/events?after=${history[0].id}`).expect(400);
        expect(after.body.error).toMatchObject({ code: 'invalid_request', param: 'after' });
      }
    });
  });

  it('answers 404 for an unknown swap id', async () => {
    await get(tester, '/v1/swaps/0123456789abcdef/events').expect(404);
    await get(tester, '/v1/swaps/not-an-id/events').expect(404);
  });

  it.each([
    ['an unknown after', 'after=evt_000000000000000000000000', 'after', 'invalid_request'],
    ['a malformed after', 'after=nope', 'after', 'invalid_request'],
    ['limit 0', 'limit=0', 'limit', 'invalid_request'],
    ['limit 201', 'limit=201', 'limit', 'invalid_request'],
    ['limit x', 'limit=x', 'limit', 'invalid_request'],
    ['an unknown type', 'type=swap.deleted', 'type', 'invalid_request'],
  ])('refuses %s with 400 naming the parameter', async (_case, query, param, code) => {
    const res = await get(tester, `/v1/events?${query}`).expect(400);
    expect(res.body.error).toMatchObject({ type: 'validation_error', code, param });
  });

  it('pages 1,000 events written by concurrent transactions with limit 7, never skipping nor repeating one', async () => {
    const writer = await h.newPartner({ mode: 'test' });
    const swapIds = Array.from({ length: 10 }, () => randomBytes(8).toString('hex'));
    await h.db.query(
      `INSERT INTO swaps (provider, id, organization_id, livemode, status, mode, from_ticker, to_ticker,
         amount_from, amount_expected_to, payin_address, payout_address)
       SELECT 'changelly', id, $1, false, 'waiting', 'float', 'btc', 'eth', 0.1, 2, 'payin', 'payout'
         FROM unnest($2::text[]) AS id`,
      [writer.organizationId, swapIds],
    );
    const recorder = h.api.app.get(EventRecorder);
    const dataSource = h.api.app.get(DataSource);
    const TOTAL = 1000;
    const WRITERS = 20;
    let written = 0;
    let stopped = false;
    const writing = Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        for (let i = 0; i < TOTAL / WRITERS && !stopped; i += 1) {
          const swapView = { id: swapIds[(w + i) % swapIds.length], livemode: false } as SwapView;
          await dataSource.transaction(async (manager) => {
            await recorder.swapStatusChanged(manager, writer.organizationId, swapView, 'waiting');
            // Transactions that began earlier often commit later: the case a feed must not skip.
            await sleep(Math.floor(Math.random() * 80));
          });
          written += 1;
          // About 200 a second: the reader (up to 7 × 80 a second) keeps up, so its pages end
          // among uncommitted writes.
          await sleep(Math.floor(Math.random() * 120));
        }
      }),
    );
    // Several credentials of the one organization and mode, each used at most once per 6 × 12 ms:
    // about 14 requests a second per credential and 84 from this address, under the 30/s
    // per-credential and 120/s per-IP limits this test does not test, however fast the machine.
    const readers = await Promise.all(
      Array.from({ length: 6 }, () => issueCredential(h.api.app, writer, 'test')),
    );
    const pace = pacer(12);
    const seen: string[] = [];
    try {
      let after = '';
      const deadline = Date.now() + 60_000;
      for (let round = 0; Date.now() < deadline; round += 1) {
        await pace();
        const reader = readers[round % readers.length];
        const res = await get(reader, `/v1/events?limit=7${after}`).expect(200);
        const page = res.body.events as PartnerEvent[];
        expect(page.length).toBeLessThanOrEqual(7);
        seen.push(...page.map((e) => e.id));
        if (page.length > 0) {
          after = `&after=${page[page.length - 1].id}`;
        }
        if (written === TOTAL && !res.body.hasMore && seen.length >= TOTAL) {
          break;
        }
      }
    } finally {
      // A failed read must not leave writers running into the next suite's database.
      stopped = true;
      await Promise.allSettled([writing]);
    }
    await writing;
    const [{ ids }] = await h.db.query<{ ids: string[] }[]>(
      `SELECT array_agg(id) AS ids FROM events WHERE organization_id = $1`,
      [writer.organizationId],
    );
    expect(ids).toHaveLength(TOTAL);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...ids].sort());
  }, 90_000);
});
