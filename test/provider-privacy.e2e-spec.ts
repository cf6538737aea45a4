import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import request from 'supertest';
import { loadPollerConfig } from '#app/config';
import { PROVIDER_NAMES } from '#app/domain';
import { startPoller, type PollerProcess } from '../apps/poller/poller.bootstrap.js';
import { issueCredential, type TestPartner } from './factories/partners.js';
import { testApiEnv, TEST_ADMIN_TOKEN } from './support/api.js';
import { DashboardClient, createDashboardUser } from './support/dashboard.js';
import { startHarness, type Harness } from './support/harness.js';
import { waitUntil } from './support/wait.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const ADMIN = `Bearer ${TEST_ADMIN_TOKEN}`;
const SHOP = 'https://shop.example';
/** Any provider's name, in any case. */
const PROVIDER_NAME = new RegExp(PROVIDER_NAMES.join('|'), 'i');

/** One answer a partner, their user or their endpoint got, as it arrived. */
interface Seen {
  what: string;
  text: string;
}

/**
 * No provider's name reaches partners (docs/decisions.md, "Liquidity routing across providers"):
 * every answer of a swap's whole lifecycle through `/v1`, its webhooks, the dashboard's pages and
 * the widget, its errors and its upstream failures included, read as text with its headers.
 */
describe('Provider names never reach partners', () => {
  let harness: Harness;
  let poller: PollerProcess;
  let receiver: WebhookReceiver;
  let owner: TestPartner;
  let tester: TestPartner;
  let dashboard: DashboardClient;
  let widgetKey: string;
  let ipNo = 0;
  const seen: Seen[] = [];

  function keep(what: string, res: request.Response): request.Response {
    seen.push({ what, text: `${JSON.stringify(res.headers)}\n${res.text}` });
    return res;
  }

  /** Each request from an address of its own: this suite tests no per-IP limit. */
  function nextIp(): string {
    ipNo += 1;
    return `10.7.${(ipNo >> 8) & 255}.${ipNo & 255}`;
  }

  function v1(method: 'get' | 'post', path: string, who: TestPartner = tester): request.Test {
    return request(harness.api.url)
      [method](path)
      .set('Authorization', who.authorization)
      .set('X-Forwarded-For', nextIp());
  }

  function widget(method: 'get' | 'post', path: string): request.Test {
    return request(harness.api.url)
      [method](`/widget-api/v1${path}`)
      .set('X-Widget-Key', widgetKey)
      .set('Origin', SHOP)
      .set('X-Forwarded-For', nextIp());
  }

  async function testAddress(): Promise<string> {
    const res = keep(
      'test helper addresses',
      await v1('get', '/v1/test_helpers/addresses?currency=eth'),
    );
    return (res.body as { addresses: string[] }).addresses[0];
  }

  async function finished(id: string): Promise<void> {
    await waitUntil(
      `swap ${id} to finish`,
      async () => (await v1('get', `/v1/swaps/${id}`)).body.swap.status === 'finished',
      30_000,
      100,
    );
  }

  beforeAll(async () => {
    harness = await startHarness({
      sandbox: { stepMs: 100 },
      api: { TRUST_PROXY_HOPS: '1' },
      partner: { name: 'Privacy Co' },
    });
    owner = harness.partner;
    tester = await issueCredential(harness.api.app, owner, 'test');
    receiver = new WebhookReceiver();
    await receiver.start();
    const env = { PROVIDER_URL: harness.sandbox.url, TEST_PROVIDER_URL: harness.sandbox.url };
    poller = await startPoller(
      loadPollerConfig(
        testApiEnv({ ...env, POLLER_HEALTH_PORT: '0', TEST_POLL_INTERVAL_MS: '200' }),
      ),
      pino({ level: 'silent' }),
      { shutdownHooks: false },
    );
    const user = await createDashboardUser(harness.api, owner.organizationId, 'owner');
    dashboard = new DashboardClient(harness.api.url);
    await dashboard.signIn(user.email, user.password);
    const key = await request(harness.api.url)
      .post(`/admin/organizations/${owner.organizationId}/widget_keys`)
      .set('Authorization', ADMIN)
      .send({ mode: 'test', name: 'Shop', allowedOrigins: [SHOP] })
      .expect(201);
    widgetKey = (key.body as { widgetKey: { key: string } }).widgetKey.key;
  }, 60_000);

  afterAll(async () => {
    await poller.close();
    await receiver.close();
    await harness.close();
  });

  it('shows none in any answer of a swap lifecycle, its webhooks, pages, widget and errors', async () => {
    keep(
      'webhook endpoint',
      await v1('post', '/v1/webhook_endpoints')
        .send({ url: `${receiver.url}/hooks` })
        .expect(201),
    );
    for (const who of [owner, tester]) {
      keep('currencies', await v1('get', '/v1/currencies', who).expect(200));
      keep('pair', await v1('get', '/v1/pairs?from=btc&to=eth', who).expect(200));
      keep('float quote', await v1('post', '/v1/quotes', who).send(quoteBody('0.1')).expect(200));
      keep(
        'fixed quote',
        await v1('post', '/v1/quotes', who).send(quoteBody('0.1', 'fixed')).expect(200),
      );
      keep(
        'refused quote',
        await v1('post', '/v1/quotes', who).send(quoteBody('0.00000001')).expect(400),
      );
    }
    keep(
      'public quote',
      await request(harness.api.url)
        .get('/v1/public/quote?from=btc&to=eth&amount=0.1')
        .set('X-Forwarded-For', nextIp())
        .expect(200),
    );
    const address = await testAddress();
    keep(
      'address check',
      await v1('post', '/v1/addresses/validate').send({ currency: 'eth', address }).expect(200),
    );

    const created = keep(
      'swap created',
      await v1('post', '/v1/swaps')
        .set('Idempotency-Key', randomUUID())
        .send({ from: 'btc', to: 'eth', amountFrom: '0.1', address }),
    );
    expect(created.status).toBe(201);
    const id = (created.body as { swap: { id: string } }).swap.id;
    keep('deposit', await v1('post', `/v1/test_helpers/swaps/${id}/deposit`).send({}).expect(200));
    await finished(id);

    const widgetQuote = keep(
      'widget quote',
      await widget('post', '/quotes').send(quoteBody('0.1')),
    );
    expect(widgetQuote.status).toBe(200);
    const widgetSwap = keep(
      'widget swap created',
      await widget('post', '/swaps')
        .set('Idempotency-Key', randomUUID())
        .send({ from: 'btc', to: 'eth', amountFrom: '0.1', address: await testAddress() }),
    );
    expect(widgetSwap.status).toBe(201);
    const { swap, statusToken } = widgetSwap.body as { swap: { id: string }; statusToken: string };
    keep(
      'widget deposit',
      await widget('post', `/test_helpers/swaps/${swap.id}/deposit`)
        .set('X-Swap-Token', statusToken)
        .send({})
        .expect(200),
    );
    await finished(swap.id);
    keep(
      'widget swap read',
      await widget('get', `/swaps/${swap.id}`).set('X-Swap-Token', statusToken).expect(200),
    );
    keep('widget page', await request(harness.api.url).get(`/widget?key=${widgetKey}`).expect(200));

    for (const path of [`/v1/swaps/${id}`, '/v1/swaps', `/v1/swaps/${id}/events`]) {
      keep(path, await v1('get', path).expect(200));
    }
    // The feed shows an event once every transaction older than its own has ended, so under
    // load it can lag the swaps' own event lists; wait until it holds every event of both swaps.
    const idsOf = (res: request.Response): string[] =>
      (res.body as { events: { id: string }[] }).events.map((e) => e.id);
    const swapEventIds: string[] = [];
    for (const swapId of [id, swap.id]) {
      swapEventIds.push(...idsOf(await v1('get', `/v1/swaps/${swapId}/events`).expect(200)));
    }
    let feed = await v1('get', '/v1/events?limit=200').expect(200);
    await waitUntil(
      'the event feed to hold every event of both swaps',
      async () => {
        feed = await v1('get', '/v1/events?limit=200').expect(200);
        return swapEventIds.every((eventId) => idsOf(feed).includes(eventId));
      },
      15_000,
      100,
    );
    keep('/v1/events', feed);
    const eventIds = idsOf(feed);
    await waitUntil(
      'a webhook for every event of both swaps',
      () =>
        Promise.resolve(
          eventIds.every((eventId) =>
            receiver.at('/hooks').some((hook) => hook.headers['webhook-id'] === eventId),
          ),
        ),
      15_000,
      100,
    );
    for (const webhook of receiver.at('/hooks')) {
      seen.push({ what: 'webhook', text: `${JSON.stringify(webhook.headers)}\n${webhook.body}` });
    }

    expect((await dashboard.post('/partner/mode', { mode: 'test', next: '/partner' })).status).toBe(
      303,
    );
    for (const path of [
      '/partner',
      '/partner/swaps',
      `/partner/swaps/${id}`,
      `/partner/swaps/${swap.id}`,
      '/partner/events',
      `/partner/events/${eventIds[0]}`,
    ]) {
      const page = keep(`dashboard ${path}`, await dashboard.get(path));
      expect({ path, status: page.status }).toEqual({ path, status: 200 });
    }

    // The provider failing, each way it can, as partners then hear of it.
    for (const mode of ['http_500', 'non_json', 'rpc_error', 'empty_result'] as const) {
      await harness.sandbox.control.setFault({ method: '*', mode, count: 2 });
      keep(`quote, ${mode}`, await v1('post', '/v1/quotes').send(quoteBody('0.2')));
      keep(
        `swap, ${mode}`,
        await v1('post', '/v1/swaps')
          .set('Idempotency-Key', randomUUID())
          .send({ from: 'btc', to: 'eth', amountFrom: '0.2', address }),
      );
      await harness.sandbox.control.clearFaults();
    }

    expect(seen.length).toBeGreaterThan(40);
    expect(seen.filter((answer) => PROVIDER_NAME.test(answer.text)).map((a) => a.what)).toEqual([]);
    // The check itself can see a name where one is.
    const operatorView = await request(harness.api.url)
      .get(`/admin/swaps/${id}`)
      .set('Authorization', ADMIN);
    expect(operatorView.text).toMatch(PROVIDER_NAME);
  });
});

function quoteBody(amountFrom: string, mode: 'float' | 'fixed' = 'float'): object {
  return { from: 'btc', to: 'eth', amountFrom, mode };
}
