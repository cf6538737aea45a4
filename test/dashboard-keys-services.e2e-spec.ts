import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { loadPollerConfig } from '#app/config';
import type { OwnerScope } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { EventsQueryService, type PartnerEvent } from '#app/events';
import { CredentialsService, OrganizationsService } from '#app/partners';
import { WebhookEndpointsService } from '#app/webhooks';
import { startPoller, type PollerProcess } from '../apps/poller/poller.bootstrap.js';
import { createOrganization } from './factories/partners.js';
import { testApiEnv } from './support/api.js';
import { startHarness, type Harness } from './support/harness.js';
import { spawnService, type ServiceProcess } from './support/processes.js';
import { waitUntil } from './support/wait.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const USER = 'user:0b6f3c9e-5d1c-4c61-9a51-1f3e8c0d2a47';

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error: unknown = await promise.then(
    () => new Error('expected a refusal'),
    (e: unknown) => e,
  );
  if (error instanceof AppError) {
    return error;
  }
  throw error;
}

/**
 * What the dashboard's API keys, webhooks and events pages stand on, end to end below the pages:
 * the libs' services against the real database, a second api process, the sandbox, a poller and
 * a local webhook receiver. Keys are tried on `/v1` over HTTP.
 */
describe('Dashboard keys, webhooks and events services', () => {
  let h: Harness;
  let replica: ServiceProcess;
  let keys: CredentialsService;
  let organizations: OrganizationsService;

  beforeAll(async () => {
    h = await startHarness({ sandbox: { stepMs: 300 } });
    const env = { PROVIDER_URL: h.sandbox.url, TEST_PROVIDER_URL: h.sandbox.url };
    replica = await spawnService('api', testApiEnv(env));
    keys = h.api.app.get(CredentialsService);
    organizations = h.api.app.get(OrganizationsService);
  }, 120_000);

  afterAll(async () => {
    await replica?.stop();
    await h?.close();
  });

  const organization = (status: 'active' | 'pending_review' = 'active') =>
    createOrganization(h.api.app, { status });

  /** The status `GET /v1/events` answers a bearer on `url` (the database only, no provider). */
  async function statusOn(url: string, publicKey: string, secret: string): Promise<number> {
    const res = await request(url)
      .get('/v1/events?limit=1')
      .set('Authorization', `Bearer ${publicKey}:${secret}`);
    return res.status;
  }

  describe('API keys', () => {
    let orgId: string;
    let test: OwnerScope;
    let live: OwnerScope;

    beforeAll(async () => {
      orgId = await organization('pending_review');
      test = { organizationId: orgId, livemode: false };
      live = { organizationId: orgId, livemode: true };
    });

    it('issues test keys while the organization is under review, live keys only once active', async () => {
      const made = await keys.create(test, 'Staging server', USER);
      expect(made).toMatchObject({
        name: 'Staging server',
        livemode: false,
        state: { kind: 'active' },
      });
      expect(made.publicKey).toMatch(/^pk_test_[0-9a-f]{32}$/);
      expect(made.secret).toMatch(/^sk_test_[0-9a-f]{48}$/);
      expect(await statusOn(h.api.url, made.publicKey, made.secret)).toBe(200);

      await expect(refusal(keys.create(live, 'Production', USER))).resolves.toMatchObject({
        code: ErrorCode.OrgPendingReview,
        status: 403,
      });
      await organizations.update(orgId, { status: 'active' }, 'test');
      const production = await keys.create(live, 'Production', USER);
      expect(production.publicKey).toMatch(/^pk_live_/);

      await organizations.update(orgId, { status: 'suspended' }, 'test');
      await expect(refusal(keys.create(test, 'More', USER))).resolves.toMatchObject({
        code: ErrorCode.OrgSuspended,
      });
      await organizations.update(orgId, { status: 'active' }, 'test');
    });

    it('lists the keys of one mode, newest first, with when each was last used and never a secret', async () => {
      const made = await keys.create(test, 'Used one', USER);
      expect(await statusOn(h.api.url, made.publicKey, made.secret)).toBe(200);

      await waitUntil('the use to be written', async () => {
        const listed = await keys.list(test);
        return listed.find((k) => k.publicKey === made.publicKey)?.lastUsedAt !== null;
      });
      const listed = await keys.list(test);
      expect(listed[0]).toMatchObject({ publicKey: made.publicKey, name: 'Used one' });
      expect(listed.every((k) => !k.livemode)).toBe(true);
      expect(JSON.stringify(listed)).not.toContain(made.secret);
      expect((await keys.list(live)).every((k) => k.livemode)).toBe(true);
    });

    it('reveals the secret and writes credential.revealed naming the user', async () => {
      const made = await keys.create(test, 'To reveal', USER);

      const revealed = await keys.reveal(test, made.publicKey, USER);

      expect(revealed.secret).toBe(made.secret);
      const rows = await h.db.query<{ actor: string; details: Record<string, unknown> }[]>(
        `SELECT actor, details FROM audit_log WHERE action = 'credential.revealed' AND target_id = $1`,
        [made.publicKey],
      );
      expect(rows).toEqual([{ actor: USER, details: { organizationId: orgId, mode: 'test' } }]);
      expect(JSON.stringify(rows)).not.toContain(made.secret);
    });

    it("answers another organization's or mode's key as unknown, on every action", async () => {
      const mine = await keys.create(test, 'Mine', USER);
      const other: OwnerScope = { organizationId: await organization(), livemode: false };

      for (const owner of [other, live]) {
        for (const action of [
          keys.reveal(owner, mine.publicKey, USER),
          keys.revoke(owner, mine.publicKey, USER),
          keys.roll(owner, mine.publicKey, '1h', USER),
        ]) {
          await expect(refusal(action)).resolves.toMatchObject({ code: ErrorCode.NotFound });
        }
      }
      await expect(refusal(keys.reveal(test, 'pk_test_\u0000', USER))).resolves.toMatchObject({
        code: ErrorCode.NotFound,
      });
      expect(await statusOn(h.api.url, mine.publicKey, mine.secret)).toBe(200);
    });

    it('revokes a key so that every api process refuses it within 5 s', async () => {
      const made = await keys.create(test, 'To revoke', USER);
      expect(await statusOn(replica.url, made.publicKey, made.secret)).toBe(200);

      const revoked = await keys.revoke(test, made.publicKey, USER);

      expect(revoked.state.kind).toBe('revoked');
      const elapsed = await waitUntil(
        'the other process to refuse the revoked key',
        async () => (await statusOn(replica.url, made.publicKey, made.secret)) === 401,
        5000,
      );
      expect(elapsed).toBeLessThan(5000);
      expect(await statusOn(h.api.url, made.publicKey, made.secret)).toBe(401);
      await expect(refusal(keys.reveal(test, made.publicKey, USER))).resolves.toMatchObject({
        code: ErrorCode.Conflict,
      });
    });

    it('rolls a key with an overlap: both work until the old one expires, then only the new', async () => {
      const made = await keys.create(test, 'Rolled', USER);
      expect(await statusOn(replica.url, made.publicKey, made.secret)).toBe(200);

      const rolled = await keys.roll(test, made.publicKey, '1h', USER);

      expect(rolled.replacement).toMatchObject({ name: 'Rolled', state: { kind: 'active' } });
      expect(rolled.previous.state.kind).toBe('expiring');
      const expiry = (rolled.previous.state as { at: Date }).at.getTime();
      expect(expiry - Date.now()).toBeGreaterThan(59 * 60 * 1000);
      expect(expiry - Date.now()).toBeLessThanOrEqual(60 * 60 * 1000);
      expect(await statusOn(replica.url, made.publicKey, made.secret)).toBe(200);
      const { publicKey, secret } = rolled.replacement;
      expect(await statusOn(replica.url, publicKey, secret)).toBe(200);
      await expect(refusal(keys.roll(test, made.publicKey, '1h', USER))).resolves.toMatchObject({
        code: ErrorCode.Conflict,
      });

      // The hour passes: the old key is refused, from the cache too, within its lifetime.
      await h.db.query(`UPDATE credentials SET expires_at = now() WHERE public_key = $1`, [
        made.publicKey,
      ]);
      await waitUntil(
        'the expired key to be refused',
        async () => (await statusOn(replica.url, made.publicKey, made.secret)) === 401,
        5000,
      );
      expect(await statusOn(replica.url, publicKey, secret)).toBe(200);
      expect((await keys.list(test)).find((k) => k.publicKey === made.publicKey)?.state.kind).toBe(
        'expired',
      );
    });

    it('rolls a key "now": the old one fails on every process within 5 s', async () => {
      const made = await keys.create(test, 'Rolled now', USER);
      expect(await statusOn(replica.url, made.publicKey, made.secret)).toBe(200);

      const rolled = await keys.roll(test, made.publicKey, 'now', USER);

      await waitUntil(
        'the other process to refuse the rolled key',
        async () => (await statusOn(replica.url, made.publicKey, made.secret)) === 401,
        5000,
      );
      expect(
        await statusOn(replica.url, rolled.replacement.publicKey, rolled.replacement.secret),
      ).toBe(200);
      const actions = await h.db.query<{ action: string }[]>(
        `SELECT action FROM audit_log WHERE target_id = $1 ORDER BY id`,
        [made.publicKey],
      );
      expect(actions.map((a) => a.action)).toEqual(['credential.create', 'credential.roll']);
    });
  });

  describe('webhooks and events', () => {
    let receiver: WebhookReceiver;
    let poller: PollerProcess;
    let endpoints: WebhookEndpointsService;
    let events: EventsQueryService;
    let owner: OwnerScope;
    let bearer: string;

    beforeAll(async () => {
      receiver = new WebhookReceiver();
      await receiver.start();
      poller = await startPoller(
        loadPollerConfig(
          testApiEnv({
            PROVIDER_URL: h.sandbox.url,
            TEST_PROVIDER_URL: h.sandbox.url,
            POLLER_HEALTH_PORT: '0',
            POLL_INTERVAL_MS: '60000',
            WEBHOOK_RETRY_BASE_MS: '200',
          }),
        ),
        pino({ level: 'silent' }),
        { shutdownHooks: false },
      );
      endpoints = h.api.app.get(WebhookEndpointsService);
      events = h.api.app.get(EventsQueryService);
      owner = { organizationId: await organization(), livemode: false };
      const key = await keys.create(owner, 'Webhooks', USER);
      bearer = `Bearer ${key.publicKey}:${key.secret}`;
    }, 60_000);

    afterAll(async () => {
      await poller.close();
      await receiver.close();
    });

    async function createTestSwap(): Promise<string> {
      const addresses = await request(h.api.url)
        .get('/v1/test_helpers/addresses?currency=eth')
        .set('Authorization', bearer)
        .expect(200);
      const res = await request(h.api.url)
        .post('/v1/swaps')
        .set('Authorization', bearer)
        .set('Idempotency-Key', randomUUID())
        .send({ from: 'btc', to: 'eth', amountFrom: '0.1', address: addresses.body.addresses[0] })
        .expect(201);
      return (res.body as { swap: { id: string } }).swap.id;
    }

    function verify(secret: string, path: string, index: number): PartnerEvent {
      const webhook = receiver.at(path)[index];
      return new Webhook(secret).verify(webhook.body, {
        'webhook-id': String(webhook.headers['webhook-id']),
        'webhook-timestamp': String(webhook.headers['webhook-timestamp']),
        'webhook-signature': String(webhook.headers['webhook-signature']),
      }) as PartnerEvent;
    }

    it('resends an event to an endpoint as a new delivery, signed, and lists both', async () => {
      const endpoint = await endpoints.create(owner, { url: `${receiver.url}/resend` });
      await createTestSwap();
      await waitUntil('the first delivery', () =>
        Promise.resolve(receiver.at('/resend').length >= 1),
      );
      const first = verify(endpoint.secret ?? '', '/resend', 0);

      const resend = await endpoints.resend(endpoint.id, owner, first.id, USER);

      expect(resend.created).toBe(true);
      await waitUntil('the resent delivery', () =>
        Promise.resolve(
          receiver.at('/resend').filter((r) => r.body.includes(first.id)).length >= 2,
        ),
      );
      const again = receiver.at('/resend').findIndex((r, i) => i > 0 && r.body.includes(first.id));
      expect(verify(endpoint.secret ?? '', '/resend', again)).toEqual(first);
      await waitUntil('the resend to be recorded as delivered', async () => {
        const listed = await endpoints.deliveriesOfEvent(first.id, owner);
        return listed.length === 2 && listed.every((d) => d.status === 'delivered');
      });
      const listed = await endpoints.deliveriesOfEvent(first.id, owner);
      expect(listed.map((d) => d.resentBy)).toEqual([USER, null]);
      expect(listed[0]).toMatchObject({ endpointId: endpoint.id, lastHttpStatus: 200 });
    });

    it("refuses to resend another organization's event or to another organization's endpoint", async () => {
      const other: OwnerScope = { organizationId: await organization(), livemode: false };
      const theirs = await endpoints.create(other, { url: `${receiver.url}/theirs` });
      const mine = await endpoints.create(owner, { url: `${receiver.url}/mine` });
      const { events: page } = await events.page(owner, { limit: 1 });
      const eventId = page[0].id;

      await expect(
        refusal(endpoints.resend(theirs.id, owner, eventId, USER)),
      ).resolves.toMatchObject({ code: ErrorCode.NotFound });
      await expect(
        refusal(endpoints.resend(theirs.id, other, eventId, USER)),
      ).resolves.toMatchObject({ code: ErrorCode.NotFound });
      await expect(
        refusal(endpoints.attemptPage(mine.id, other, { limit: 10 })),
      ).resolves.toMatchObject({ code: ErrorCode.NotFound });
      expect(await endpoints.deliveriesOfEvent(eventId, other)).toEqual([]);
      await expect(refusal(events.get(eventId, other))).resolves.toMatchObject({
        code: ErrorCode.NotFound,
      });
      await expect(
        refusal(events.page(other, { before: eventId, limit: 10 })),
      ).resolves.toMatchObject({ code: ErrorCode.InvalidRequest, param: 'before' });

      await endpoints.update(mine.id, owner, { enabled: false });
      await expect(refusal(endpoints.resend(mine.id, owner, eventId, USER))).resolves.toMatchObject(
        { code: ErrorCode.Conflict },
      );
    });

    it('pages an endpoint’s attempts newest first', async () => {
      const endpoint = await endpoints.create(owner, { url: `${receiver.url}/paged` });
      await createTestSwap();
      await waitUntil('a delivery', () => Promise.resolve(receiver.at('/paged').length >= 1));
      const event = JSON.parse(receiver.at('/paged')[0].body) as PartnerEvent;
      await endpoints.resend(endpoint.id, owner, event.id, USER);
      await waitUntil('the resend', () => Promise.resolve(receiver.at('/paged').length >= 2));
      await waitUntil(
        'both attempts recorded',
        async () =>
          (await endpoints.attemptPage(endpoint.id, owner, { limit: 10 })).attempts.length >= 2,
      );

      const first = await endpoints.attemptPage(endpoint.id, owner, { limit: 1 });
      const second = await endpoints.attemptPage(endpoint.id, owner, {
        limit: 1,
        before: first.attempts[0].id,
      });

      expect(first.hasMore).toBe(true);
      expect(Number(second.attempts[0].id)).toBeLessThan(Number(first.attempts[0].id));
      expect(second.attempts[0]).toMatchObject({
        eventId: expect.stringMatching(/^evt_/),
        httpStatus: 200,
      });
      const ignored = await endpoints.attemptPage(endpoint.id, owner, {
        limit: 1,
        before: "1' OR 1=1",
      });
      expect(ignored.attempts).toEqual(first.attempts);
    });

    it('pages the event feed newest first, both ways, and shows one event', async () => {
      const all = await events.page(owner, { limit: 100 });
      expect(all.events.length).toBeGreaterThanOrEqual(2);
      expect(all).toMatchObject({ hasOlder: false, hasNewer: false });

      const first = await events.page(owner, { limit: 1 });
      const older = await events.page(owner, { limit: 1, before: first.events[0].id });
      const back = await events.page(owner, { limit: 1, after: older.events[0].id });

      expect(first).toMatchObject({ events: [all.events[0]], hasOlder: true, hasNewer: false });
      expect(older).toMatchObject({ events: [all.events[1]], hasNewer: true });
      expect(back).toMatchObject({ events: [all.events[0]], hasOlder: true, hasNewer: false });
      await expect(events.get(all.events[0].id, owner)).resolves.toEqual(all.events[0]);
      await expect(
        refusal(events.page(owner, { limit: 1, before: 'evt_\u0000' })),
      ).resolves.toMatchObject({ code: ErrorCode.InvalidRequest });
    });
  });
});
