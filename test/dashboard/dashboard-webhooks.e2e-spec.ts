import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { CredentialsService } from '#app/partners';
import { type DashboardClient, signedInClient } from '../support/dashboard.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { type Harness, startHarness } from '../support/harness.js';
import { createOrganization } from '../factories/partners.js';

const WEBHOOK_SECRET = /whsec_[A-Za-z0-9+/=]+/;
const ENDPOINT_ID = /we_[0-9a-f]{24}/;
const EVENT_ID = /evt_[0-9a-f]{24}/g;

/**
 * The Webhooks and Events pages over plain HTTP: what owners and developers do, what viewers
 * see, another organization's ids on every route, CSRF and hostile input in every field.
 */
describe('Dashboard webhooks and events pages', () => {
  let harness: Harness;
  let receiver: WebhookReceiver;
  let orgId: string;
  let developer: DashboardClient;
  let developerEmail: string;
  let viewer: DashboardClient;
  let other: DashboardClient;
  let theirEndpoint: string;
  let theirEvent: string;

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    await receiver.start();
    harness = await startHarness({ smtp: true });
    orgId = await createOrganization(harness.api.app, { name: 'Hooked Exchange' });
    const signedIn = await signedInClient(harness.api, orgId, 'developer');
    developer = signedIn.client;
    developerEmail = signedIn.email;
    viewer = (await signedInClient(harness.api, orgId, 'viewer')).client;
    for (const client of [developer, viewer]) {
      await client.get('/partner');
      await client.post('/partner/mode', { mode: 'test', next: '/partner' });
    }
    const otherOrg = await createOrganization(harness.api.app, { name: 'Other Hooks' });
    other = (await signedInClient(harness.api, otherOrg, 'owner')).client;
    await other.get('/partner');
    await other.post('/partner/mode', { mode: 'test', next: '/partner' });
    theirEndpoint = (await addEndpoint(other, `${receiver.url}/theirs`)).id;
    await createTestSwap(otherOrg);
    theirEvent = (await firstEventIds(other))[0];
    await createTestSwap(orgId);
  }, 60_000);

  afterAll(async () => {
    await harness.close();
    await receiver.close();
  });

  async function createTestSwap(organizationId: string): Promise<void> {
    const key = await harness.api.app
      .get(CredentialsService)
      .create({ organizationId, livemode: false }, 'Swaps', 'test');
    const bearer = `Bearer ${key.publicKey}:${key.secret}`;
    const addresses = await request(harness.api.url)
      .get('/v1/test_helpers/addresses?currency=eth')
      .set('Authorization', bearer)
      .expect(200);
    await request(harness.api.url)
      .post('/v1/swaps')
      .set('Authorization', bearer)
      .set('Idempotency-Key', randomUUID())
      .send({ from: 'btc', to: 'eth', amountFrom: '0.1', address: addresses.body.addresses[0] })
      .expect(201);
  }

  async function addEndpoint(
    client: DashboardClient,
    url: string,
  ): Promise<{ id: string; secret: string; html: string }> {
    await client.get('/partner/webhooks');
    const res = await client.post('/partner/webhooks', {
      url,
      description: 'Orders service',
      'event:swap.created': 'on',
      'event:swap.status_changed': 'on',
    });
    expect(res.status).toBe(200);
    const id = ENDPOINT_ID.exec(res.text)?.[0];
    const secret = WEBHOOK_SECRET.exec(res.text)?.[0];
    if (!id || !secret) {
      throw new Error(`no endpoint on the page (${res.status})`);
    }
    return { id, secret, html: res.text };
  }

  async function firstEventIds(client: DashboardClient): Promise<string[]> {
    const res = await client.get('/partner/events');
    expect(res.status).toBe(200);
    return [...new Set(res.text.match(EVENT_ID) ?? [])];
  }

  it('adds an endpoint and shows its signing secret once', async () => {
    const { id, secret } = await addEndpoint(developer, `${receiver.url}/added`);

    const list = await developer.get('/partner/webhooks');
    expect(list.text).toContain(`${receiver.url}/added`);
    const page = await developer.get(`/partner/webhooks/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Orders service');
    expect(page.text).not.toContain(secret);
  });

  it('edits, disables, enables, rotates, sends a test event and deletes', async () => {
    const { id, secret } = await addEndpoint(developer, `${receiver.url}/edited`);
    const path = `/partner/webhooks/${id}`;

    const edited = await developer.post(path, {
      url: `${receiver.url}/moved`,
      description: 'Moved',
      'event:swap.status_changed': 'on',
      enabled: 'on',
    });
    expect(edited.status).toBe(303);
    const page = (await developer.get(path)).text;
    expect(page).toContain(`${receiver.url}/moved`);
    expect(page).toContain('Endpoint saved.');
    expect(page).not.toContain('checked name="event:swap.created"');

    expect((await developer.post(`${path}/disable`, {})).status).toBe(303);
    expect((await developer.get(path)).text).toContain('<dd>Disabled</dd>');
    expect((await developer.post(`${path}/enable`, {})).status).toBe(303);
    expect((await developer.get(path)).text).toContain('<dd>Enabled</dd>');

    const rotated = await developer.post(`${path}/rotate-secret`, {});
    expect(rotated.status).toBe(200);
    const newSecret = WEBHOOK_SECRET.exec(rotated.text)?.[0];
    expect(newSecret).toBeDefined();
    expect(newSecret).not.toBe(secret);

    const tested = await developer.post(`${path}/test`, {});
    expect(tested.status).toBe(303);
    expect((await developer.get(path)).text).toContain('the endpoint answered HTTP 200');
    const ping = receiver.at('/moved').at(-1);
    expect(ping?.body).toContain('"endpoint.ping"');

    expect((await developer.post(`${path}/delete`, {})).status).toBe(303);
    expect((await developer.get(path)).status).toBe(404);

    const audit = await harness.db.query<
      { action: string; actor: string; organization_id: string }[]
    >(`SELECT action, actor, organization_id FROM audit_log WHERE target_id = $1 ORDER BY id`, [
      id,
    ]);
    expect(audit.map((entry) => entry.action)).toEqual([
      'webhook_endpoint.create',
      'webhook_endpoint.update',
      'webhook_endpoint.disable',
      'webhook_endpoint.enable',
      'webhook_endpoint.rotate_secret',
      'webhook_endpoint.delete',
    ]);
    expect(new Set(audit.map((entry) => `${entry.actor} ${entry.organization_id}`))).toEqual(
      new Set([`dashboard:${developerEmail} ${orgId}`]),
    );
    expect(JSON.stringify(audit)).not.toContain(secret);
  });

  it('pages the event feed and resends an event from its page', async () => {
    const { id } = await addEndpoint(developer, `${receiver.url}/resent`);
    const [eventId] = await firstEventIds(developer);
    expect(eventId).toBeDefined();

    const eventPage = await developer.get(`/partner/events/${eventId}`);
    expect(eventPage.status).toBe(200);
    expect(eventPage.text).toContain('swap.created');
    const resent = await developer.post(`/partner/events/${eventId}/resend`, { endpointId: id });
    expect(resent.status).toBe(303);
    const after = await developer.get(`/partner/events/${eventId}`);
    expect(after.text).toContain('queued for sending again');
    expect(after.text).toContain(`${receiver.url}/resent`);
    const typed = await developer.get('/partner/events?type=swap.created');
    expect(typed.status).toBe(200);
    const older = await developer.get(`/partner/events?before=${eventId}`);
    expect(older.status).toBe(200);
  });

  it('shows viewers the pages without any button and refuses their posts', async () => {
    const { id } = await addEndpoint(developer, `${receiver.url}/viewed`);
    const [eventId] = await firstEventIds(developer);

    for (const path of [
      '/partner/webhooks',
      `/partner/webhooks/${id}`,
      `/partner/events/${eventId}`,
    ]) {
      const res = await viewer.get(path);
      expect(res.status).toBe(200);
      expect(res.text).not.toMatch(WEBHOOK_SECRET);
      for (const absent of [
        'Add endpoint',
        'Save changes',
        'Send test event',
        'Rotate secret',
        '>Delete<',
        '>Disable<',
        '>Resend<',
      ]) {
        expect(res.text).not.toContain(absent);
      }
    }
    for (const [path, fields] of [
      ['/partner/webhooks', { url: `${receiver.url}/v`, 'event:swap.created': 'on' }],
      [`/partner/webhooks/${id}`, { url: `${receiver.url}/v`, 'event:swap.created': 'on' }],
      [`/partner/webhooks/${id}/disable`, {}],
      [`/partner/webhooks/${id}/enable`, {}],
      [`/partner/webhooks/${id}/rotate-secret`, {}],
      [`/partner/webhooks/${id}/test`, {}],
      [`/partner/webhooks/${id}/resend`, { eventId }],
      [`/partner/webhooks/${id}/delete`, {}],
      [`/partner/events/${eventId}/resend`, { endpointId: id }],
    ] as const) {
      const res = await viewer.post(path, fields);
      expect(res.status).toBe(403);
      expect(res.text).not.toMatch(WEBHOOK_SECRET);
    }
    expect((await developer.get(`/partner/webhooks/${id}`)).status).toBe(200);
  });

  it("answers another organization's ids with 404 or 400 on every route, never their data", async () => {
    const [mine] = await firstEventIds(developer);
    const { id: myEndpoint } = await addEndpoint(developer, `${receiver.url}/mine`);
    const gets = [
      `/partner/webhooks/${theirEndpoint}`,
      `/partner/events/${theirEvent}`,
      `/partner/events?before=${theirEvent}`,
      `/partner/events?after=${theirEvent}`,
    ];
    for (const path of gets) {
      const res = await developer.get(path);
      expect([400, 404]).toContain(res.status);
      expect(res.text).not.toContain(`${receiver.url}/theirs`);
    }
    const posts = [
      [
        `/partner/webhooks/${theirEndpoint}`,
        { url: `${receiver.url}/x`, 'event:swap.created': 'on' },
      ],
      [`/partner/webhooks/${theirEndpoint}/disable`, {}],
      [`/partner/webhooks/${theirEndpoint}/enable`, {}],
      [`/partner/webhooks/${theirEndpoint}/rotate-secret`, {}],
      [`/partner/webhooks/${theirEndpoint}/test`, {}],
      [`/partner/webhooks/${theirEndpoint}/resend`, { eventId: mine }],
      [`/partner/webhooks/${myEndpoint}/resend`, { eventId: theirEvent }],
      [`/partner/webhooks/${theirEndpoint}/delete`, {}],
      [`/partner/events/${theirEvent}/resend`, { endpointId: myEndpoint }],
      [`/partner/events/${mine}/resend`, { endpointId: theirEndpoint }],
    ] as const;
    for (const [path, fields] of posts) {
      const res = await developer.post(path, fields);
      expect(res.status).toBe(404);
      expect(res.text).not.toContain(`${receiver.url}/theirs`);
      expect(res.text).not.toMatch(WEBHOOK_SECRET);
    }
    const theirs = await other.get(`/partner/webhooks/${theirEndpoint}`);
    expect(theirs.text).toContain(`${receiver.url}/theirs`);
    expect(theirs.text).toContain('<dd>Enabled</dd>');
  });

  it('needs the CSRF token on every form', async () => {
    const { id } = await addEndpoint(developer, `${receiver.url}/csrf`);
    const [eventId] = await firstEventIds(developer);
    for (const path of [
      '/partner/webhooks',
      `/partner/webhooks/${id}`,
      `/partner/webhooks/${id}/disable`,
      `/partner/webhooks/${id}/rotate-secret`,
      `/partner/webhooks/${id}/test`,
      `/partner/webhooks/${id}/resend`,
      `/partner/webhooks/${id}/delete`,
      `/partner/events/${eventId}/resend`,
    ]) {
      const res = await developer.post(
        path,
        { url: `${receiver.url}/forged`, eventId, endpointId: id, 'event:swap.created': 'on' },
        { csrf: null },
      );
      expect(res.status).toBe(403);
    }
    const page = await developer.get(`/partner/webhooks/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<dd>Enabled</dd>');
    expect((await developer.get('/partner/webhooks')).text).not.toContain('/forged');
  });

  it('answers hostile input in every field and parameter with a page, never a 500', async () => {
    const { id } = await addEndpoint(developer, `${receiver.url}/fuzzed`);
    const [eventId] = await firstEventIds(developer);
    const hostile = [
      '',
      'a\u0000b',
      '\u0007',
      'x'.repeat(100_000),
      '\ud800',
      '<script>alert(1)</script>',
      'javascript:alert(1)',
      'http://169.254.169.254/latest/meta-data',
      'http://user:pass@example.com/',
      "'; DROP TABLE webhook_endpoints; --",
      '😀'.repeat(600),
      '%00',
      'evt_000000000000000000000000',
      '99999999999999999999999999',
    ];
    // Text inside a quoted attribute value is inert; anywhere else it must arrive escaped.
    const check = (status: number, text: string) => {
      expect(status).toBeLessThan(500);
      expect(text.replace(/="[^"]*"/g, '=""')).not.toContain('<script>alert(1)</script>');
    };
    for (const value of hostile) {
      const inPath = value === '\ud800' ? '%ED%A0%80' : encodeURIComponent(value);
      for (const fields of [
        { url: value, 'event:swap.created': 'on' } as Record<string, string>,
        { url: `${receiver.url}/f`, description: value, 'event:swap.created': 'on' },
        { url: `${receiver.url}/f`, 'event:swap.created': value },
      ]) {
        const created = await developer.post('/partner/webhooks', fields);
        check(created.status, created.text);
        const edited = await developer.post(`/partner/webhooks/${id}`, {
          ...fields,
          enabled: value,
        });
        check(edited.status, edited.text);
      }
      for (const [path, fields] of [
        [`/partner/webhooks/${id}/resend`, { eventId: value }],
        [`/partner/events/${eventId}/resend`, { endpointId: value }],
        [`/partner/webhooks/${inPath}/test`, {}],
        [`/partner/webhooks/${inPath}/delete`, {}],
        [`/partner/events/${inPath}/resend`, { endpointId: id }],
      ] as const) {
        const res = await developer.post(path, fields);
        check(res.status, res.text);
      }
      for (const path of [
        `/partner/webhooks/${inPath}`,
        `/partner/webhooks/${id}?before=${inPath}`,
        `/partner/events/${inPath}`,
        `/partner/events?before=${inPath}`,
        `/partner/events?after=${inPath}`,
        `/partner/events?type=${inPath}`,
      ]) {
        const res = await developer.get(path);
        check(res.status, res.text);
      }
    }
    const repeated = await developer.get(`/partner/events?type=swap.created&type=swap.created`);
    expect(repeated.status).toBe(400);
    expect((await developer.get(`/partner/webhooks/${id}`)).status).toBe(200);
  });
});
