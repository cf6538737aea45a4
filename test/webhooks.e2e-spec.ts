import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { loadPollerConfig } from '#app/config';
import { EVENT_TYPES, type PartnerEvent } from '#app/events';
import type { SwapView } from '#app/swaps';
import { WebhookDispatcher } from '#app/webhooks';
import { startPoller, type PollerProcess } from '../apps/poller/poller.bootstrap.js';
import { createPartner, issueCredential, type TestPartner } from './factories/partners.js';
import {
  ADMIN_HEADERS,
  startTestApi,
  testApiEnv,
  TEST_ADMIN_TOKEN,
  type TestApi,
} from './support/api.js';
import { spawnService } from './support/processes.js';
import { startHarness, type Harness } from './support/harness.js';
import { waitUntil } from './support/wait.js';
import { WebhookReceiver, type ReceivedWebhook } from './support/webhook-receiver.js';

const DAY_MS = 24 * 60 * 60 * 1000;

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  livemode: boolean;
  createdAt: string;
  secret?: string;
}

/**
 * Webhooks end to end: the api, a test sandbox, a poller in this process (and, for
 * the SIGKILL case, one in a child process) and a local receiver that checks every signature
 * with the `standardwebhooks` package.
 */
describe('Webhooks', () => {
  let h: Harness;
  let poller: PollerProcess;
  let receiver: WebhookReceiver;
  let env: Record<string, string | undefined>;

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    await receiver.start();
    h = await startHarness({ sandbox: { stepMs: 300 } });
    env = { PROVIDER_URL: h.sandbox.url, TEST_PROVIDER_URL: h.sandbox.url };
    // The poller runs here by hand: the SIGKILL case stops it and starts another.
    poller = await startPoller(
      loadPollerConfig(
        testApiEnv({
          ...env,
          POLLER_HEALTH_PORT: '0',
          POLL_INTERVAL_MS: '60000',
          WEBHOOK_RETRY_BASE_MS: '100',
        }),
      ),
      pino({ level: 'silent' }),
      { shutdownHooks: false },
    );
  }, 60_000);

  afterAll(async () => {
    await poller?.close();
    await h?.close();
    await receiver?.close();
  });

  const call = (who: TestPartner) => ({
    get: (path: string) => request(h.api.url).get(path).set('Authorization', who.authorization),
    post: (path: string, body: object = {}) =>
      request(h.api.url).post(path).set('Authorization', who.authorization).send(body),
    patch: (path: string, body: object) =>
      request(h.api.url).patch(path).set('Authorization', who.authorization).send(body),
    delete: (path: string) =>
      request(h.api.url).delete(path).set('Authorization', who.authorization),
  });

  async function createEndpoint(who: TestPartner, body: object): Promise<Endpoint> {
    const res = await call(who).post('/v1/webhook_endpoints', body).expect(201);
    return res.body.webhookEndpoint as Endpoint;
  }

  async function createTestSwap(who: TestPartner): Promise<SwapView> {
    const addresses = await call(who).get('/v1/test_helpers/addresses?currency=eth').expect(200);
    const res = await request(h.api.url)
      .post('/v1/swaps')
      .set('Authorization', who.authorization)
      .set('Idempotency-Key', randomUUID())
      .send({ from: 'btc', to: 'eth', amountFrom: '0.1', address: addresses.body.addresses[0] })
      .expect(201);
    return res.body.swap as SwapView;
  }

  /** The event a request carried, after checking its signature with `secret`. */
  function verified(secret: string, webhook: ReceivedWebhook): PartnerEvent {
    const headers = {
      'webhook-id': String(webhook.headers['webhook-id']),
      'webhook-timestamp': String(webhook.headers['webhook-timestamp']),
      'webhook-signature': String(webhook.headers['webhook-signature']),
    };
    return new Webhook(secret).verify(webhook.body, headers) as PartnerEvent;
  }

  describe('delivery', () => {
    let tester: TestPartner;

    beforeAll(async () => {
      tester = await h.newPartner({ mode: 'test' });
    });

    it('delivers every event of a swap to two endpoints, signed, within 2 s of being stored', async () => {
      const a = await createEndpoint(tester, { url: `${receiver.url}/a`, description: 'A' });
      const b = await createEndpoint(tester, { url: `${receiver.url}/b` });
      expect(a).toMatchObject({
        url: `${receiver.url}/a`,
        events: ['swap.created', 'swap.status_changed'],
        description: 'A',
        enabled: true,
        livemode: false,
      });
      expect(a.id).toMatch(/^we_[0-9a-f]{24}$/);
      expect(a.secret).toMatch(/^whsec_/);

      const swap = await createTestSwap(tester);
      await call(tester).post(`/v1/test_helpers/swaps/${swap.id}/deposit`).expect(200);
      let history: PartnerEvent[] = [];
      await waitUntil(
        'the swap to finish',
        async () => {
          history = (await call(tester).get(`/v1/swaps/${swap.id}/events`)).body.events;
          return history.at(-1)?.data.swap.status === 'finished';
        },
        20_000,
        100,
      );
      const ids = history.map((e) => e.id);
      await waitUntil(
        'both endpoints to get every event',
        () =>
          Promise.resolve(
            ['/a', '/b'].every((path) =>
              ids.every((id) => receiver.at(path).some((r) => r.headers['webhook-id'] === id)),
            ),
          ),
        5_000,
        50,
      );
      const latencies: number[] = [];
      for (const [path, endpoint] of [
        ['/a', a],
        ['/b', b],
      ] as const) {
        for (const event of history) {
          const webhook = receiver.at(path).find((r) => r.headers['webhook-id'] === event.id)!;
          expect(verified(endpoint.secret!, webhook)).toEqual(event);
          expect(JSON.parse(webhook.body)).toEqual(event);
          expect(webhook.headers['content-type']).toBe('application/json');
          latencies.push(webhook.receivedAt - Date.parse(event.createdAt));
        }
      }
      const worst = Math.max(...latencies);
      process.stdout.write(
        `webhooks: ${latencies.length} deliveries, stored → received max ${worst} ms, median ${[...latencies].sort((x, y) => x - y)[latencies.length >> 1]} ms\n`,
      );
      expect(worst).toBeLessThan(2000);

      const metrics = await fetch(
        `http://127.0.0.1:${(poller.probes.address() as AddressInfo).port}/metrics`,
        { headers: ADMIN_HEADERS },
      ).then((res) => res.text());
      expect(metrics).toMatch(/webhook_deliveries_total\{outcome="delivered"\} \d+/);
      expect(metrics).toContain('webhook_deliveries_pending');
      expect(metrics).toContain('webhook_oldest_pending_age_seconds');
      expect(metrics).toContain('webhook_endpoint_disables_total');
    }, 40_000);

    it('shows on /metrics how long each endpoint has been owed a delivery, while it is', async () => {
      receiver.answer('/owed', 500);
      const endpoint = await createEndpoint(tester, {
        url: `${receiver.url}/owed`,
        events: ['swap.created'],
      });
      await createTestSwap(tester);
      const metricsUrl = `http://127.0.0.1:${(poller.probes.address() as AddressInfo).port}/metrics`;
      const series = new RegExp(
        `^webhook_endpoint_oldest_pending_age_seconds\\{endpoint="${endpoint.id}"\\} ([\\d.e+-]+)$`,
        'm',
      );
      let age = NaN;
      await waitUntil(
        'the owed endpoint to show on /metrics',
        async () => {
          age = Number(
            series.exec(await (await fetch(metricsUrl, { headers: ADMIN_HEADERS })).text())?.[1] ??
              NaN,
          );
          return age >= 0;
        },
        // The backlog is measured every 5 s.
        15_000,
        100,
      );
      expect(age).toBeLessThan(60);

      // Disabled, it is owed nothing any more: its series goes.
      await h.db.query('UPDATE webhook_endpoints SET enabled = false WHERE id = $1', [endpoint.id]);
      await waitUntil(
        'the endpoint to leave /metrics',
        async () =>
          !series.test(await (await fetch(metricsUrl, { headers: ADMIN_HEADERS })).text()),
        15_000,
        100,
      );
    });

    it('retries a receiver answering 500, 500, then 200: three attempts under /deliveries', async () => {
      receiver.answer('/flaky', 500, 500, 200);
      const endpoint = await createEndpoint(tester, {
        url: `${receiver.url}/flaky`,
        events: ['swap.created'],
      });
      const swap = await createTestSwap(tester);
      const [created] = (await call(tester).get(`/v1/swaps/${swap.id}/events`)).body.events;
      let deliveries: { eventId: string; attempt: number; httpStatus: number }[] = [];
      await waitUntil(
        'three attempts',
        async () => {
          deliveries = (await call(tester).get(`/v1/webhook_endpoints/${endpoint.id}/deliveries`))
            .body.deliveries;
          return deliveries.length === 3;
        },
        10_000,
        100,
      );
      expect(deliveries).toMatchObject([
        { eventId: created.id, attempt: 3, httpStatus: 200, error: null },
        { eventId: created.id, attempt: 2, httpStatus: 500 },
        { eventId: created.id, attempt: 1, httpStatus: 500 },
      ]);
      expect(receiver.at('/flaky')).toHaveLength(3);
      const [{ status }] = await h.db.query<{ status: string }[]>(
        `SELECT status FROM webhook_deliveries WHERE endpoint_id = $1`,
        [endpoint.id],
      );
      expect(status).toBe('delivered');
      // The success clears the failures on record: the endpoint is healthy again.
      const [health] = await h.db.query<{ failing_since: Date | null }[]>(
        `SELECT failing_since FROM webhook_endpoints WHERE id = $1`,
        [endpoint.id],
      );
      expect(health.failing_since).toBeNull();
      const limited = await call(tester)
        .get(`/v1/webhook_endpoints/${endpoint.id}/deliveries?limit=1`)
        .expect(200);
      expect(limited.body.deliveries).toHaveLength(1);
      await call(tester).get(`/v1/webhook_endpoints/${endpoint.id}/deliveries?limit=0`).expect(400);
    }, 20_000);

    it("sends a recovered receiver's backlog at once, not after each delivery's backoff", async () => {
      receiver.answer('/recovering', 503);
      const endpoint = await createEndpoint(tester, {
        url: `${receiver.url}/recovering`,
        events: ['swap.created'],
      });
      const backlog = await createTestSwap(tester);
      // Four failures at a 100 ms base (4.3 s): the next retry is 18 s (±10 %) away, past the
      // 15 s this test allows the backlog.
      await waitUntil(
        'four failed attempts',
        () => Promise.resolve(receiver.at('/recovering').length >= 4),
        30_000,
        50,
      );
      receiver.answer('/recovering', 200);
      const recoveredAt = Date.now();
      const fresh = await createTestSwap(tester);

      const swapsDelivered = () =>
        receiver
          .at('/recovering')
          .slice(4)
          .map((webhook) => verified(endpoint.secret!, webhook).data.swap.id);
      await waitUntil(
        'the backlog delivered after the first success',
        () => Promise.resolve(swapsDelivered().includes(backlog.id)),
        15_000,
        50,
      );
      expect(swapsDelivered()).toContain(fresh.id);
      expect(Date.now() - recoveredAt).toBeLessThan(15_000);
    }, 60_000);

    it('signs with both secrets for 24 h after a rotation', async () => {
      const endpoint = await createEndpoint(tester, {
        url: `${receiver.url}/rotated`,
        events: ['swap.created'],
      });
      const rotated = await call(tester)
        .post(`/v1/webhook_endpoints/${endpoint.id}/rotate_secret`)
        .expect(200);
      const fresh = rotated.body.webhookEndpoint as Endpoint;
      expect(fresh.id).toBe(endpoint.id);
      expect(fresh.secret).toMatch(/^whsec_/);
      expect(fresh.secret).not.toBe(endpoint.secret);
      const swap = await createTestSwap(tester);
      await waitUntil(
        'the event',
        () => Promise.resolve(receiver.at('/rotated').length > 0),
        5_000,
        50,
      );
      const [webhook] = receiver.at('/rotated');
      expect(String(webhook.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(verified(endpoint.secret!, webhook).data.swap.id).toBe(swap.id);
      expect(verified(fresh.secret!, webhook).data.swap.id).toBe(swap.id);
      expect(() => verified(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, webhook)).toThrow();
    }, 20_000);

    it('pings at once with a signed endpoint.ping that is neither stored nor in the feed', async () => {
      const endpoint = await createEndpoint(tester, { url: `${receiver.url}/ping` });
      const res = await call(tester).post(`/v1/webhook_endpoints/${endpoint.id}/ping`).expect(200);
      expect(res.body.delivery).toMatchObject({ attempt: 1, httpStatus: 200, error: null });
      const [webhook] = receiver.at('/ping');
      const ping = verified(endpoint.secret!, webhook) as unknown as { type: string; id: string };
      expect(ping).toMatchObject({ type: 'endpoint.ping', id: res.body.delivery.eventId });
      const feed = await call(tester).get('/v1/events?limit=200').expect(200);
      expect(feed.body.events.map((e: PartnerEvent) => e.id)).not.toContain(ping.id);
    });

    it('disables an endpoint whose deliveries all failed for 3 days, with an audit entry', async () => {
      receiver.answer('/down', 503);
      const endpoint = await createEndpoint(tester, {
        url: `${receiver.url}/down`,
        events: ['swap.created'],
      });
      await createTestSwap(tester);
      await waitUntil(
        'a first failed attempt',
        async () =>
          (await call(tester).get(`/v1/webhook_endpoints/${endpoint.id}/deliveries`)).body
            .deliveries.length > 0,
        5_000,
        50,
      );
      const dispatcher = poller.context.get(WebhookDispatcher);
      const threeDaysOn = new Date(Date.now() + 3 * DAY_MS + 60_000);
      expect(await dispatcher.deliverDue('clock-test', threeDaysOn)).toBeGreaterThan(0);

      const after = await call(tester).get(`/v1/webhook_endpoints/${endpoint.id}`).expect(200);
      expect(after.body.webhookEndpoint.enabled).toBe(false);
      const [delivery] = await h.db.query<{ status: string }[]>(
        `SELECT status FROM webhook_deliveries WHERE endpoint_id = $1`,
        [endpoint.id],
      );
      expect(delivery.status).toBe('failed');
      const audit = await request(h.api.url)
        .get('/admin/audit')
        .set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
        .expect(200);
      expect(audit.body.entries).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            action: 'webhook_endpoint.disable',
            targetId: endpoint.id,
            actor: 'poller',
          }),
        ]),
      );
      const health = await request(h.api.url)
        .get(`/admin/organizations/${tester.organizationId}/webhook_endpoints`)
        .set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
        .expect(200);
      expect(
        health.body.webhookEndpoints.find((e: Endpoint) => e.id === endpoint.id),
      ).toMatchObject({ enabled: false, failedDeliveries: 1, pendingDeliveries: 0 });
      const metrics = await fetch(
        `http://127.0.0.1:${(poller.probes.address() as AddressInfo).port}/metrics`,
        { headers: ADMIN_HEADERS },
      ).then((res) => res.text());
      expect(metrics).toMatch(/webhook_endpoint_disables_total 1/);
      // Re-enabled by the partner, it is healthy again.
      const enabled = await call(tester)
        .patch(`/v1/webhook_endpoints/${endpoint.id}`, { enabled: true })
        .expect(200);
      expect(enabled.body.webhookEndpoint.enabled).toBe(true);
    }, 20_000);
  });

  describe('management', () => {
    it('shows the secret only on create and rotate; patches, deletes, and 404s what is gone', async () => {
      const who = await h.newPartner({ mode: 'test' });
      const endpoint = await createEndpoint(who, { url: `${receiver.url}/m` });
      const got = await call(who).get(`/v1/webhook_endpoints/${endpoint.id}`).expect(200);
      expect(got.body.webhookEndpoint).not.toHaveProperty('secret');
      const withoutSecret = Object.fromEntries(
        Object.entries(endpoint).filter(([key]) => key !== 'secret'),
      );
      expect(got.body.webhookEndpoint).toEqual(withoutSecret);
      const list = await call(who).get('/v1/webhook_endpoints').expect(200);
      expect(list.body.webhookEndpoints).toEqual([withoutSecret]);
      const patched = await call(who)
        .patch(`/v1/webhook_endpoints/${endpoint.id}`, {
          url: `${receiver.url}/m2`,
          events: ['swap.status_changed'],
          description: 'second',
          enabled: false,
        })
        .expect(200);
      expect(patched.body.webhookEndpoint).toMatchObject({
        url: `${receiver.url}/m2`,
        events: ['swap.status_changed'],
        description: 'second',
        enabled: false,
      });
      expect(patched.body.webhookEndpoint).not.toHaveProperty('secret');
      await call(who).delete(`/v1/webhook_endpoints/${endpoint.id}`).expect(204);
      await call(who).get(`/v1/webhook_endpoints/${endpoint.id}`).expect(404);
      await call(who).delete(`/v1/webhook_endpoints/${endpoint.id}`).expect(404);
      await call(who).get('/v1/webhook_endpoints/we_nope').expect(404);
    });

    it('reads null as absent on create and patch, except a patched description, which null clears', async () => {
      const who = await h.newPartner({ mode: 'test' });
      const endpoint = await createEndpoint(who, {
        url: `${receiver.url}/nulls`,
        events: null,
        description: null,
      });
      expect(endpoint).toMatchObject({ events: [...EVENT_TYPES], description: null });
      await call(who)
        .patch(`/v1/webhook_endpoints/${endpoint.id}`, { description: 'kept' })
        .expect(200);
      const untouched = await call(who)
        .patch(`/v1/webhook_endpoints/${endpoint.id}`, { url: null, events: null, enabled: null })
        .expect(200);
      expect(untouched.body.webhookEndpoint).toMatchObject({
        url: endpoint.url,
        events: endpoint.events,
        enabled: true,
        description: 'kept',
      });
      const cleared = await call(who)
        .patch(`/v1/webhook_endpoints/${endpoint.id}`, { description: null })
        .expect(200);
      expect(cleared.body.webhookEndpoint).toMatchObject({ description: null });
      const res = await call(who).post('/v1/webhook_endpoints', { url: null }).expect(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'url' });
    });

    it.each([
      ['no url', {}, 'url'],
      [
        'an unknown event type',
        { url: 'https://93.184.216.34/h', events: ['swap.deleted'] },
        'events',
      ],
      ['no event type', { url: 'https://93.184.216.34/h', events: [] }, 'events'],
      ['a URL that is none', { url: 'not a url' }, 'url'],
    ])('refuses %s with 400 naming the field', async (_case, body, param) => {
      const who = await h.newPartner({ mode: 'test' });
      const res = await call(who).post('/v1/webhook_endpoints', body).expect(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
    });

    it('allows 10 endpoints per organization and mode', async () => {
      const who = await h.newPartner({ mode: 'test' });
      for (let i = 0; i < 10; i += 1) {
        await createEndpoint(who, { url: `${receiver.url}/n${i}` });
      }
      const res = await call(who)
        .post('/v1/webhook_endpoints', { url: `${receiver.url}/n10` })
        .expect(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request' });
      const live = await issueCredential(h.api.app, who, 'live');
      await createEndpoint(live, { url: 'https://93.184.216.34/hooks' });
    });

    it('keeps live and test endpoints and their events apart', async () => {
      const tester = await h.newPartner({ mode: 'test' });
      const live = await issueCredential(h.api.app, tester, 'live');
      const testEndpoint = await createEndpoint(tester, { url: `${receiver.url}/sep-test` });
      const liveEndpoint = await createEndpoint(live, { url: `${receiver.url}/sep-live` });
      expect(liveEndpoint.livemode).toBe(true);
      expect(testEndpoint.livemode).toBe(false);
      expect((await call(live).get('/v1/webhook_endpoints')).body.webhookEndpoints).toEqual([
        expect.objectContaining({ id: liveEndpoint.id }),
      ]);
      await call(live).get(`/v1/webhook_endpoints/${testEndpoint.id}`).expect(404);
      await call(tester).get(`/v1/webhook_endpoints/${liveEndpoint.id}`).expect(404);
      await call(live).post(`/v1/webhook_endpoints/${testEndpoint.id}/rotate_secret`).expect(404);
      await call(live).delete(`/v1/webhook_endpoints/${testEndpoint.id}`).expect(404);
      const stranger = await h.newPartner({ mode: 'test' });
      await call(stranger).get(`/v1/webhook_endpoints/${testEndpoint.id}`).expect(404);

      await createTestSwap(tester);
      await waitUntil(
        'the test event',
        () => Promise.resolve(receiver.at('/sep-test').length > 0),
        5_000,
        50,
      );
      expect(receiver.at('/sep-live')).toEqual([]);
    });
  });

  describe('target safety (live, private targets not allowed)', () => {
    let strict: TestApi;
    let live: TestPartner;

    beforeAll(async () => {
      strict = await startTestApi({ ...env, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' });
      live = await createPartner(strict.app);
    });

    afterAll(() => strict.close());

    it.each([
      ['http:// in live mode', 'http://93.184.216.34/h'],
      ['loopback', 'https://127.0.0.1/h'],
      ['a name resolving to loopback', 'https://localhost/h'],
      ['IPv6 loopback', 'https://[::1]/h'],
      ['private 10/8', 'https://10.1.2.3/h'],
      ['private 172.16/12', 'https://172.16.0.1/h'],
      ['private 192.168/16', 'https://192.168.1.1/h'],
      ['IPv6 unique local', 'https://[fd00::1]/h'],
      ['link-local metadata', 'https://169.254.169.254/latest/meta-data'],
      ['IPv6 link-local', 'https://[fe80::1]/h'],
      ['CGNAT', 'https://100.64.0.1/h'],
      ['multicast', 'https://224.0.0.1/h'],
      ['IPv6 multicast', 'https://[ff02::1]/h'],
      ['unspecified', 'https://0.0.0.0/h'],
      ['IPv6 unspecified', 'https://[::]/h'],
      ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/h'],
      ['IPv4-mapped metadata', 'https://[::ffff:a9fe:a9fe]/h'],
      ['local-use NAT64 of a private address', 'https://[64:ff9b:1::a00:1]/hook'],
      ['IPv4-translated private address', 'https://[::ffff:0:a00:1]/hook'],
      ['a block outside global unicast', 'https://[4000::1]/hook'],
      ['credentials in the URL', 'https://user:pw@93.184.216.34/h'],
    ])('refuses %s with 400 invalid_request on url', async (_case, url) => {
      const res = await request(strict.url)
        .post('/v1/webhook_endpoints')
        .set('Authorization', live.authorization)
        .send({ url })
        .expect(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'url' });
    });

    it('refuses a private URL on PATCH too, and accepts a public address', async () => {
      const res = await request(strict.url)
        .post('/v1/webhook_endpoints')
        .set('Authorization', live.authorization)
        .send({ url: 'https://93.184.216.34/hooks' })
        .expect(201);
      const id = res.body.webhookEndpoint.id as string;
      const patched = await request(strict.url)
        .patch(`/v1/webhook_endpoints/${id}`)
        .set('Authorization', live.authorization)
        .send({ url: 'https://169.254.169.254/' })
        .expect(400);
      expect(patched.body.error).toMatchObject({ code: 'invalid_request', param: 'url' });
    });
  });

  describe('a poller killed while it holds leases', () => {
    it('loses no delivery: all are delivered once its leases run out', async () => {
      await poller.close();
      receiver.answer('/kill', 'hang');
      const tester = await h.newPartner({ mode: 'test' });
      await createEndpoint(tester, { url: `${receiver.url}/kill`, events: ['swap.created'] });
      const childEnv = testApiEnv({
        ...env,
        POLL_INTERVAL_MS: '60000',
        WEBHOOK_LEASE_MS: '3000',
        LOG_LEVEL: 'silent',
      });
      const child = await spawnService('poller', childEnv);
      const swaps = await Promise.all(Array.from({ length: 5 }, () => createTestSwap(tester)));
      await waitUntil(
        'the child to hold every delivery',
        () => Promise.resolve(receiver.at('/kill').length >= 5),
        10_000,
        50,
      );
      const leased = await h.db.query<{ count: number }[]>(
        `SELECT count(*)::int AS count FROM webhook_deliveries d JOIN webhook_endpoints w
           ON w.id = d.endpoint_id
          WHERE w.organization_id = $1 AND d.lease_owner IS NOT NULL AND d.status = 'pending'`,
        [tester.organizationId],
      );
      expect(leased[0].count).toBe(5);
      await child.stop('SIGKILL');

      receiver.answer('/kill', 200);
      poller = await startPoller(
        loadPollerConfig(
          testApiEnv({ ...env, POLLER_HEALTH_PORT: '0', POLL_INTERVAL_MS: '60000' }),
        ),
        pino({ level: 'silent' }),
        { shutdownHooks: false },
      );
      await waitUntil(
        'every delivery to be delivered',
        async () => {
          const [{ count }] = await h.db.query<{ count: number }[]>(
            `SELECT count(*)::int AS count FROM webhook_deliveries d JOIN webhook_endpoints w
               ON w.id = d.endpoint_id
              WHERE w.organization_id = $1 AND d.status = 'delivered'`,
            [tester.organizationId],
          );
          return count === 5;
        },
        15_000,
        100,
      );
      const ids = new Set(receiver.at('/kill').map((r) => String(r.headers['webhook-id'])));
      const created = await h.db.query<{ id: string }[]>(
        `SELECT id FROM events WHERE swap_id = ANY($1) AND type = 'swap.created'`,
        [swaps.map((s) => s.id)],
      );
      expect(created.map((e) => ids.has(e.id))).toEqual([true, true, true, true, true]);
    }, 60_000);
  });
});
