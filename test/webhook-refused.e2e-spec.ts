import { pino } from 'pino';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { loadPollerConfig } from '#app/config';
import { startPoller, type PollerProcess } from '../apps/poller/poller.bootstrap.js';
import { createPartner } from './factories/partners.js';
import { startTestApi, testApiEnv, TEST_ADMIN_TOKEN, type TestApi } from './support/api.js';
import { openTestDataSource, truncateAll } from './support/database.js';
import { recordStatusChange, seedSwapView } from './support/events.js';
import { waitUntil } from './support/wait.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/**
 * An endpoint the target guard refuses at delivery time (its name now resolves to a private
 * address, or the policy was made strict after it was saved): here the api allowed a loopback
 * URL and the poller does not. No retry can pass the guard, so the delivery fails at once and
 * the endpoint is disabled, with an audit entry.
 */
describe('Webhooks to a target the guard refuses', () => {
  let api: TestApi;
  let poller: PollerProcess;
  let db: DataSource;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    await truncateAll();
    receiver = new WebhookReceiver();
    await receiver.start();
    api = await startTestApi();
    poller = await startPoller(
      loadPollerConfig(
        testApiEnv({
          POLLER_HEALTH_PORT: '0',
          POLL_INTERVAL_MS: '600000',
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false',
        }),
      ),
      pino({ level: 'silent' }),
      { shutdownHooks: false },
    );
    db = await openTestDataSource();
  }, 60_000);

  afterAll(async () => {
    await poller.close();
    await db.destroy();
    await api.close();
    await receiver.close();
  });

  it('fails the delivery at once and disables the endpoint with an audit entry', async () => {
    const who = await createPartner(api.app);
    const created = await request(api.url)
      .post('/v1/webhook_endpoints')
      .set('Authorization', who.authorization)
      .send({ url: `${receiver.url}/refused` })
      .expect(201);
    const id = created.body.webhookEndpoint.id as string;
    const swap = await seedSwapView(db, api.url, who);
    await recordStatusChange(api.app, who, swap);

    await waitUntil(
      'the endpoint to be disabled',
      async () =>
        (
          await request(api.url)
            .get(`/v1/webhook_endpoints/${id}`)
            .set('Authorization', who.authorization)
        ).body.webhookEndpoint.enabled === false,
      10_000,
      100,
    );
    const deliveries = await request(api.url)
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
    const [row] = await db.query<{ status: string; finished: boolean }[]>(
      `SELECT status, finished_at IS NOT NULL AS finished FROM webhook_deliveries
        WHERE endpoint_id = $1`,
      [id],
    );
    expect(row).toEqual({ status: 'failed', finished: true });
    expect(receiver.received).toEqual([]);
    const audit = await request(api.url)
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
});
