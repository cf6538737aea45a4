import { jest } from '@jest/globals';
import request from 'supertest';
import { OrganizationsService } from '#app/partners';
import { insertSwaps } from '../factories/swaps.js';
import { type DashboardClient, flashOf, signedInClient } from '../support/dashboard.js';
import { type Harness, startHarness } from '../support/harness.js';
import { createOrganization } from '../factories/partners.js';

/**
 * "Get started" and a test swap's helpers over HTTP: who may make a test key and use the
 * helpers, on which swaps, with which forms; the first test quote recorded once, in test mode.
 */
describe('Dashboard: Get started and the test helpers over HTTP', () => {
  jest.setTimeout(120_000);

  let harness: Harness;
  let url: string;
  let orgA: string;
  let owner: DashboardClient;
  let developer: DashboardClient;
  let viewer: DashboardClient;
  let stranger: DashboardClient;
  let testAuth: string;

  async function testMode(client: DashboardClient, on: boolean): Promise<void> {
    await client.get('/partner');
    expect(
      (await client.post('/partner/mode', { mode: on ? 'test' : 'live', next: '/partner' })).status,
    ).toBe(303);
  }

  async function testSwap(): Promise<string> {
    const address = (
      await request(url)
        .get('/v1/test_helpers/addresses?currency=eth')
        .set('Authorization', testAuth)
        .expect(200)
    ).body.addresses[0] as string;
    const res = await request(url)
      .post('/v1/swaps')
      .set('Authorization', testAuth)
      .set('Idempotency-Key', crypto.randomUUID())
      .send({ from: 'btc', to: 'eth', amountFrom: '0.1', address })
      .expect(201);
    return (res.body as { swap: { id: string } }).swap.id;
  }

  async function statusOf(id: string): Promise<string> {
    const rows: { status: string }[] = await harness.db.query(
      `SELECT status FROM swaps WHERE id = $1`,
      [id],
    );
    return rows[0].status;
  }

  beforeAll(async () => {
    harness = await startHarness({ smtp: true, sandbox: { stepMs: 3_600_000 } });
    url = harness.api.url;
    orgA = await createOrganization(harness.api.app, { name: 'Helpers A' });
    const orgB = await createOrganization(harness.api.app, { name: 'Helpers B' });
    owner = (await signedInClient(harness.api, orgA, 'owner')).client;
    developer = (await signedInClient(harness.api, orgA, 'developer')).client;
    viewer = (await signedInClient(harness.api, orgA, 'viewer')).client;
    stranger = (await signedInClient(harness.api, orgB, 'owner')).client;
    const issued = await harness.api.app
      .get(OrganizationsService)
      .issueCredential(orgA, 'test', 'test');
    testAuth = `Bearer ${issued.publicKey}:${issued.secret}`;
  }, 90_000);

  afterAll(async () => {
    await harness?.close();
  });

  it('offers "Create a test key" to owners and developers only, and never shows a secret again', async () => {
    const forViewer = await viewer.get('/partner/get-started');
    expect(forViewer.status).toBe(200);
    expect(forViewer.text).not.toContain('Create a test key</button>');
    const refused = await viewer.post('/partner/get-started/test-key', {});
    expect(refused.status).toBe(403);

    const noCsrf = await stranger.post('/partner/get-started/test-key', {}, { csrf: null });
    expect(noCsrf.status).toBe(403);
    const foreign = await stranger.post(
      '/partner/get-started/test-key',
      {},
      { origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    await stranger.get('/partner/get-started');
    const made = await stranger.post('/partner/get-started/test-key', {});
    expect(made.status).toBe(200);
    const secret = /data-testid="secret">(sk_test_[0-9a-f]+)</.exec(made.text)?.[1];
    expect(secret).toBeDefined();
    const again = await stranger.get('/partner/get-started');
    expect(again.text).not.toContain(secret);
    expect(again.text).not.toContain('Create a test key</button>');
    expect(again.headers['cache-control']).toBe('no-store');
  });

  it('tells a suspended organization no test key can be made, and refuses the form', async () => {
    const suspended = await createOrganization(harness.api.app, { status: 'suspended' });
    const { client } = await signedInClient(harness.api, suspended, 'owner');
    const page = await client.get('/partner/get-started');
    expect(page.text).toContain('Your organization is suspended: no new test keys can be created.');
    expect((await client.post('/partner/get-started/test-key', {})).status).toBe(403);
  });

  it('records the first test quote once, and no live quote', async () => {
    const firstQuote = async (): Promise<Date | null> =>
      (
        await harness.db.query<{ first_test_quote_at: Date | null }[]>(
          `SELECT first_test_quote_at FROM organizations WHERE id = $1`,
          [orgA],
        )
      )[0].first_test_quote_at;
    const live = await harness.api.app.get(OrganizationsService).issueCredential(orgA, 'test');
    await request(url)
      .post('/v1/quotes')
      .set('Authorization', `Bearer ${live.publicKey}:${live.secret}`)
      .send({ from: 'btc', to: 'eth', amountFrom: '0.1' })
      .expect(200);
    expect(await firstQuote()).toBeNull();
    const quote = (): Promise<unknown> =>
      request(url)
        .post('/v1/quotes')
        .set('Authorization', testAuth)
        .send({ from: 'btc', to: 'eth', amountFrom: '0.1' })
        .expect(200);
    await quote();
    const first = await firstQuote();
    expect(first).not.toBeNull();
    await quote();
    expect(await firstQuote()).toEqual(first);
  });

  it('gives the helpers to owners and developers on test swaps only, each form checked', async () => {
    const id = await testSwap();
    const path = `/partner/swaps/${id}/test-helpers`;
    await testMode(viewer, true);
    const seen = await viewer.get(`/partner/swaps/${id}`);
    expect(seen.status).toBe(200);
    expect(seen.text).not.toContain('Test helpers');
    expect((await viewer.post(`${path}/deposit`, { kind: 'full' })).status).toBe(403);

    // Another organization's swap, and this one seen in live mode, are not found.
    await testMode(stranger, true);
    expect((await stranger.post(`${path}/deposit`, { kind: 'full' })).status).toBe(404);
    await testMode(developer, false);
    expect((await developer.post(`${path}/deposit`, { kind: 'full' })).status).toBe(404);
    const [live] = await insertSwaps(harness.db, [
      { organizationId: orgA, createdAt: new Date().toISOString() },
    ]);
    const livePage = await developer.get(`/partner/swaps/${live}`);
    expect(livePage.status).toBe(200);
    expect(livePage.text).not.toContain('Test helpers');
    expect(
      (await developer.post(`/partner/swaps/${live}/test-helpers/status`, { status: 'failed' }))
        .status,
    ).toBe(404);
    expect(await statusOf(live)).toBe('waiting');

    await testMode(developer, true);
    const page = await developer.get(`/partner/swaps/${id}`);
    expect(page.text).toContain('Simulate deposit');
    expect((await developer.post(`${path}/deposit`, { kind: 'full' }, { csrf: null })).status).toBe(
      403,
    );
    expect((await developer.post(`${path}/deposit`, { kind: 'twice' })).status).toBe(400);
    expect((await developer.post(`${path}/status`, { status: 'waiting' })).status).toBe(400);
    expect(await statusOf(id)).toBe('waiting');

    const short = await developer.post(`${path}/deposit`, { kind: 'short', amount: 'abc' });
    expect(short.status).toBe(303);
    expect(flashOf((await developer.get(`/partner/swaps/${id}`)).text)).toMatch(/amount/i);
    expect(await statusOf(id)).toBe('waiting');

    expect((await developer.post(`${path}/deposit`, { kind: 'full' })).status).toBe(303);
    expect(flashOf((await developer.get(`/partner/swaps/${id}`)).text)).toBe(
      'Deposit simulated: the swap is confirming.',
    );
    await testMode(owner, true);
    await owner.get(`/partner/swaps/${id}`);
    expect((await owner.post(`${path}/deposit`, { kind: 'full' })).status).toBe(303);
    expect(flashOf((await owner.get(`/partner/swaps/${id}`)).text)).toBe(
      'This swap is confirming; only a waiting swap takes a deposit.',
    );
    expect((await owner.post(`${path}/status`, { status: 'finished' })).status).toBe(303);
    const over = await owner.get(`/partner/swaps/${id}`);
    expect(flashOf(over.text)).toBe('The swap is finished now.');
    expect(over.text).toContain('This swap is over');
    expect(await statusOf(id)).toBe('finished');
  });
});
