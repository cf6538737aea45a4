import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { generateAddress } from '#app/chains';
import { createPartnerOverHttp, type TestPartner } from './factories/partners.js';
import { TEST_ADMIN_TOKEN, TEST_ENCRYPTION_KEY, testApiEnv } from './support/api.js';
import { providerKeyPair } from './support/keys.js';
import { OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver.js';
import { spawnService, type ServiceProcess } from './support/processes.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';
import { waitUntil } from './support/wait.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const random = (n: number): Uint8Array => randomBytes(n);

/** Exported within a tenth of a second, so a test waits for its spans, not for a batch. */
const TRACING_ENV = { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '100' };

function isPostgres(span: ReceivedSpan): boolean {
  return span.attributes['db.system.name'] === 'postgresql';
}

function isRedis(span: ReceivedSpan): boolean {
  return span.attributes['db.system.name'] === 'redis';
}

/** A wait for what the receiver has already got. */
function holds(check: () => boolean): () => Promise<boolean> {
  return () => Promise.resolve(check());
}

/** Every attribute value of every span, as text, to look for what must never be there. */
function exportedText(spans: ReceivedSpan[]): string {
  return spans.map((span) => JSON.stringify([span.name, span.attributes])).join('\n');
}

/**
 * The api and the poller as they run in production, spawned with `OTEL_EXPORTER_OTLP_ENDPOINT`
 * set to an OTLP receiver in this process: what they export is what a collector would get.
 */
describe('Tracing: one trace per request and per poller round, exported over OTLP', () => {
  const receiver = new OtlpReceiver();
  const webhooks = new WebhookReceiver();
  let sandbox: TestSandbox;
  let api: ServiceProcess;
  let partner: TestPartner;
  /** Everything secret or personal the traced work handled. */
  const secrets: string[] = [];

  beforeAll(async () => {
    await receiver.start();
    await webhooks.start();
    sandbox = await startTestSandbox({ stepMs: 60_000 });
    api = await spawnService(
      'api',
      testApiEnv({
        PROVIDER_URL: sandbox.url,
        TEST_PROVIDER_URL: sandbox.url,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        ...TRACING_ENV,
      }),
    );
    partner = await createPartnerOverHttp(api.url, TEST_ADMIN_TOKEN);
    secrets.push(
      partner.secret,
      TEST_ADMIN_TOKEN,
      TEST_ENCRYPTION_KEY,
      providerKeyPair().privateKeyPem.split('\n')[1],
    );
  }, 120_000);

  afterAll(async () => {
    await api.stop();
    await sandbox.close();
    await webhooks.close();
    await receiver.close();
  });

  describe('a swap creation', () => {
    const hookToken = `tok_${randomBytes(12).toString('hex')}`;
    const body = {
      from: 'btc',
      to: 'eth',
      amountFrom: '0.1',
      address: generateAddress('ethereum', random),
      refundAddress: generateAddress('bitcoin', random),
      partnerReferenceId: `order-${randomBytes(6).toString('hex')}`,
    };
    let requestId: string;
    let trace: ReceivedSpan[];
    let server: ReceivedSpan;

    beforeAll(async () => {
      const endpoint = await request(api.url)
        .post('/v1/webhook_endpoints')
        .set('Authorization', partner.authorization)
        .send({ url: `${webhooks.url}/hooks/${hookToken}?token=${hookToken}` })
        .expect(201);
      const created = await request(api.url)
        .post('/v1/swaps')
        .set('Authorization', partner.authorization)
        .set('Idempotency-Key', randomUUID())
        .send(body)
        .expect(201);
      requestId = created.headers['x-request-id'];
      const swap = created.body.swap as { payinAddress: string };
      secrets.push(
        hookToken,
        (endpoint.body as { webhookEndpoint: { secret: string } }).webhookEndpoint.secret,
        body.address,
        body.refundAddress,
        body.partnerReferenceId,
        swap.payinAddress,
      );
      await waitUntil(
        'the creation to be exported',
        holds(() => receiver.spans.some((s) => s.attributes['app.request_id'] === requestId)),
      );
      server = receiver.spans.find((s) => s.attributes['app.request_id'] === requestId)!;
      // The children end before the request does: they were exported with it or before.
      trace = receiver.trace(server.traceId);
    });

    it('is one trace: the request, its Postgres queries, its Redis commands, the provider call', () => {
      expect(server).toMatchObject({
        service: 'swap-api',
        kind: 'server',
        name: 'POST /v1/swaps',
        parentSpanId: null,
        attributes: expect.objectContaining({
          'http.route': '/v1/swaps',
          'http.response.status_code': 201,
        }),
      });
      expect(trace.filter(isPostgres).length).toBeGreaterThan(0);
      expect(trace.filter(isRedis).length).toBeGreaterThan(0);
      const providerCalls = trace.filter(
        (s) => s.kind === 'client' && String(s.attributes['url.full']).startsWith(sandbox.url),
      );
      expect(providerCalls.length).toBeGreaterThan(0);
      expect(providerCalls[0].attributes).toMatchObject({ 'http.request.method': 'POST' });
      // Every span of the trace hangs under the request.
      const ids = new Set(trace.map((s) => s.spanId));
      expect(trace.every((s) => s === server || ids.has(s.parentSpanId ?? ''))).toBe(true);
    });

    it('names the request and the organization, never a secret, an address or the body', () => {
      expect(server.attributes).toMatchObject({
        'app.request_id': requestId,
        'app.organization_id': partner.organizationId,
      });
      expect(Object.keys(server.attributes)).toEqual(
        expect.not.arrayContaining(['client.address', 'network.peer.address', 'url.path']),
      );
      for (const span of receiver.spans) {
        expect(Object.keys(span.attributes)).not.toContain('url.query');
      }
      const text = exportedText(receiver.spans);
      for (const secret of secrets) {
        expect(text).not.toContain(secret);
      }
      expect(text).not.toContain('Bearer');
      // Nor any of the body: its field names are nowhere.
      expect(text).not.toMatch(/amountFrom|refundAddress|partnerReferenceId/);
      // Redis spans carry the command only, never its keys.
      expect(
        trace.filter(isRedis).every((s) => !/\s/.test(String(s.attributes['db.query.text']))),
      ).toBe(true);
    });

    describe('then the poller', () => {
      let poller: ServiceProcess;

      beforeAll(async () => {
        poller = await spawnService(
          'poller',
          testApiEnv({
            PROVIDER_URL: sandbox.url,
            POLL_INTERVAL_MS: '1000',
            POLLER_TICK_MS: '200',
            OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
            ...TRACING_ENV,
          }),
        );
      }, 120_000);

      afterAll(async () => {
        await poller.stop();
      });

      function roots(name: string): ReceivedSpan[] {
        return receiver.spans.filter((s) => s.name === name && s.parentSpanId === null);
      }

      it('traces each refresh round as its own trace: its queries and provider calls', async () => {
        await waitUntil(
          'a round that asked the provider',
          holds(() =>
            roots('poller.refresh_round').some((round) =>
              receiver.trace(round.traceId).some((s) => s.kind === 'client'),
            ),
          ),
        );
        const round = roots('poller.refresh_round').find((r) =>
          receiver.trace(r.traceId).some((s) => s.kind === 'client'),
        )!;
        expect(round).toMatchObject({
          service: 'swap-poller',
          attributes: expect.objectContaining({ 'poller.lane': 'live' }),
        });
        expect(round.attributes['poller.provider_calls']).toBeGreaterThan(0);
        expect(receiver.trace(round.traceId).filter(isPostgres).length).toBeGreaterThan(0);
      });

      it('traces each webhook send as its own trace, naming the endpoint, never its URL', async () => {
        await waitUntil(
          'the swap.created webhook to be sent and traced',
          holds(() =>
            roots('webhook.send').some((s) => s.attributes['webhook.outcome'] === 'delivered'),
          ),
        );
        const send = roots('webhook.send').find(
          (s) => s.attributes['webhook.outcome'] === 'delivered',
        )!;
        expect(send.attributes).toMatchObject({
          'app.organization_id': partner.organizationId,
          'webhook.endpoint_id': expect.stringMatching(/^we_/),
          'webhook.event_id': expect.stringMatching(/^evt_/),
          'webhook.event_type': 'swap.created',
          'webhook.attempt': 1,
          'http.response.status_code': 200,
        });
        expect(receiver.trace(send.traceId).filter(isPostgres).length).toBeGreaterThan(0);
        expect(webhooks.received.length).toBeGreaterThan(0);
        const text = exportedText(receiver.spans);
        for (const secret of secrets) {
          expect(text).not.toContain(secret);
        }
      });
    });
  });
});
