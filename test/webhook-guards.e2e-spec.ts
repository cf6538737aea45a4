import request from 'supertest';
import { testApiEnv, TEST_ADMIN_TOKEN } from './support/api.js';
import { recordStatusChange, seedSwapView } from './support/events.js';
import { startHarness, type Harness } from './support/harness.js';
import { spawnServices, type ServiceProcess } from './support/processes.js';
import { waitUntil } from './support/wait.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/**
 * Pings answer within 5 s and are capped per endpoint and organization, so a hanging receiver
 * cannot hold api requests open. And an endpoint the target guard refuses at delivery time (its name now resolves to a private
 * address, or the policy was made strict after it was saved): here the api allowed a loopback
 * URL and the poller does not. No retry can pass the guard, so the delivery fails at once and
 * the endpoint is disabled, with an audit entry.
 */
describe('Webhook guards: refused targets and pings', () => {
  let h: Harness;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    await receiver.start();
    h = await startHarness({
      localPoller: { POLL_INTERVAL_MS: '600000', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' },
    });
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    await receiver?.close();
  });

  it('fails the delivery at once and disables the endpoint with an audit entry', async () => {
    const who = await h.newPartner();
    const created = await request(h.api.url)
      .post('/v1/webhook_endpoints')
      .set('Authorization', who.authorization)
      .send({ url: `${receiver.url}/refused` })
      .expect(201);
    const id = created.body.webhookEndpoint.id as string;
    const swap = await seedSwapView(h.db, h.api.url, who);
    await recordStatusChange(h.api.app, who, swap);

    await waitUntil(
      'the endpoint to be disabled',
      async () =>
        (
          await request(h.api.url)
            .get(`/v1/webhook_endpoints/${id}`)
            .set('Authorization', who.authorization)
        ).body.webhookEndpoint.enabled === false,
      10_000,
      100,
    );
    const deliveries = await request(h.api.url)
      .get(`/v1/webhook_endpoints/${id}/deliveries`)
      .set('Authorization', who.authorization)
      .expect(200);
    expect(deliveries.body.deliveries).toEqual([
      expect.objectContaining({
        attempt: 1,
        httpStatus: null,
        error: expect.stringMatching(/^refused: /),
      }),
    ]);
    const [row] = await h.db.query<{ status: string; finished: boolean }[]>(
      `SELECT status, finished_at IS NOT NULL AS finished FROM webhook_deliveries
        WHERE endpoint_id = $1`,
      [id],
    );
    expect(row).toEqual({ status: 'failed', finished: true });
    expect(receiver.received).toEqual([]);
    const audit = await request(h.api.url)
      .get('/admin/audit')
      .set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .expect(200);
    expect(audit.body.entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          action: 'webhook_endpoint.disable',
          targetId: id,
          actor: 'poller',
        }),
      ]),
    );
  });

  it('caps pings in flight per endpoint and organization, and gives up after 5 s', async () => {
    receiver.answer('/ping-hangs', 'hang');
    const who = await h.newPartner();
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const res = await request(h.api.url)
        .post('/v1/webhook_endpoints')
        .set('Authorization', who.authorization)
        .send({ url: `${receiver.url}/ping-hangs` })
        .expect(201);
      ids.push(res.body.webhookEndpoint.id as string);
    }
    const ping = (id: string) =>
      request(h.api.url)
        .post(`/v1/webhook_endpoints/${id}/ping`)
        .set('Authorization', who.authorization)
        .send({});
    const started = Date.now();
    const hanging = ids.slice(0, 3).map((id) => ping(id).then((res) => res));
    await waitUntil(
      'three pings at the receiver',
      () => Promise.resolve(receiver.at('/ping-hangs').length === 3),
      5_000,
      20,
    );
    const again = await ping(ids[0]);
    const fourth = await ping(ids[3]);
    for (const res of [again, fourth]) {
      expect(res.status).toBe(429);
      expect(res.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
      expect(res.headers['retry-after']).toBe('5');
    }
    expect(receiver.at('/ping-hangs')).toHaveLength(3);
    for (const res of await Promise.all(hanging)) {
      expect(res.status).toBe(200);
      expect(res.body.delivery).toMatchObject({ httpStatus: null, error: 'timeout after 5000 ms' });
    }
    expect(Date.now() - started).toBeLessThan(9_000);
    // Once they have answered, the endpoint can be pinged again.
    receiver.answer('/ping-hangs', 204);
    const after = await ping(ids[0]).expect(200);
    expect(after.body.delivery).toMatchObject({ httpStatus: 204, error: null });
  }, 30_000);

  describe('across two api processes', () => {
    let apis: ServiceProcess[] = [];

    beforeAll(async () => {
      apis = await spawnServices('api', [testApiEnv(), testApiEnv()]);
    }, 120_000);

    afterAll(async () => {
      await Promise.all(apis.map((service) => service.stop()));
    });

    it('holds the ping cap across both and meters its refusals', async () => {
      receiver.answer('/ping-shared', 'hang');
      const who = await h.newPartner();
      const ids: string[] = [];
      for (let i = 0; i < 4; i += 1) {
        const res = await request(h.api.url)
          .post('/v1/webhook_endpoints')
          .set('Authorization', who.authorization)
          .send({ url: `${receiver.url}/ping-shared` })
          .expect(201);
        ids.push(res.body.webhookEndpoint.id as string);
      }
      const ping = (i: number, id: string) =>
        request(apis[i].url)
          .post(`/v1/webhook_endpoints/${id}/ping`)
          .set('Authorization', who.authorization)
          .send({});
      const pings = async (i: number, outcome: string): Promise<number> => {
        const text = (
          await request(apis[i].url)
            .get('/metrics')
            .set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
            .expect(200)
        ).text;
        const line = new RegExp(`^api_webhook_pings_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm');
        return Number(line.exec(text)?.[1] ?? 0);
      };
      // Two pings on the first process, one on the second: three of the organization in flight.
      const hanging = [ping(0, ids[0]), ping(1, ids[1]), ping(0, ids[2])].map((p) =>
        p.then((res) => res),
      );
      await waitUntil(
        'three pings at the receiver',
        () => Promise.resolve(receiver.at('/ping-shared').length === 3),
        10_000,
        20,
      );

      const sameEndpoint = await ping(1, ids[0]);
      const fourth = await ping(1, ids[3]);

      for (const res of [sameEndpoint, fourth]) {
        expect(res.status).toBe(429);
        expect(res.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
        expect(res.headers['retry-after']).toBe('5');
      }
      expect(receiver.at('/ping-shared')).toHaveLength(3);
      for (const res of await Promise.all(hanging)) {
        expect(res.status).toBe(200);
      }
      expect(await pings(1, 'rate_limited')).toBe(2);
      expect((await pings(0, 'sent')) + (await pings(1, 'sent'))).toBe(3);
      // Once they have answered, the slots are free on both processes.
      receiver.answer('/ping-shared', 204);
      await ping(1, ids[0]).expect(200);
      await ping(0, ids[3]).expect(200);
    }, 60_000);
  });
});
