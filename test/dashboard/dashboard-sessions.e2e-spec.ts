import { jest } from '@jest/globals';
import request from 'supertest';
import { Clock, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '#app/accounts';
import { createDashboardUser, DashboardClient } from '../support/dashboard.js';
import { type Harness, startHarness } from '../support/harness.js';
import { createOrganization } from '../factories/partners.js';

describe('Dashboard sessions', () => {
  let harness: Harness;
  let organizationId: string;
  let url: string;

  beforeAll(async () => {
    harness = await startHarness({ smtp: true });
    url = harness.api.url;
    organizationId = await createOrganization(harness.api.app, { name: 'Session Wallet' });
  });

  afterAll(async () => {
    await harness.close();
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('sends an unauthenticated page to sign in, remembering the page', async () => {
    const res = await request(url).get('/partner?since=7d');

    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/partner/login?next=%2Fpartner%3Fsince%3D7d');
  });

  it('signs in with a cookie scoped to /partner, a new id each time, and back to the page asked', async () => {
    const { email, password } = await createDashboardUser(harness.api, organizationId, 'developer');
    const client = new DashboardClient(url);
    await client.get('/partner/login');

    const first = await client.post('/partner/login', { email, password, next: '/partner/team' });

    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/partner/team');
    const cookie = (first.headers['set-cookie'] as unknown as string[]).find((c) =>
      c.startsWith('partner_session='),
    );
    expect(cookie).toMatch(/; Path=\/partner/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).not.toMatch(/; Secure/);
    const firstId = client.sessionId();
    expect(firstId).toBeDefined();

    await client.get('/partner/login');
    const second = await client.post('/partner/login', { email, password });
    expect(second.status).toBe(303);
    expect(client.sessionId()).not.toBe(firstId);
    // The id the browser had before signing in again no longer works.
    const stale = await request(url).get('/partner').set('Cookie', `partner_session=${firstId}`);
    expect(stale.status).toBe(303);
    expect((await client.get('/partner')).status).toBe(200);
  });

  it('ends a session idle for 30 minutes, and any session after 12 hours', async () => {
    const { email, password } = await createDashboardUser(harness.api, organizationId, 'viewer');
    const client = new DashboardClient(url);
    await client.signIn(email, password);
    const clock = harness.api.app.get(Clock);
    const start = Date.now();
    const at = (ms: number) => jest.spyOn(clock, 'now').mockReturnValue(new Date(start + ms));

    at(SESSION_IDLE_MS - 60_000);
    expect((await client.get('/partner')).status).toBe(200);
    // Each visit restarts the idle time; 12 hours end it whatever.
    let elapsed = SESSION_IDLE_MS - 60_000;
    while (elapsed + SESSION_IDLE_MS - 60_000 < SESSION_ABSOLUTE_MS) {
      elapsed += SESSION_IDLE_MS - 60_000;
      at(elapsed);
      expect((await client.get('/partner')).status).toBe(200);
    }
    at(SESSION_ABSOLUTE_MS + 1000);
    const expired = await client.get('/partner');
    expect(expired.status).toBe(303);
    expect(expired.headers.location).toBe('/partner/login');

    jest.restoreAllMocks();
    await client.signIn(email, password);
    // Measured from after the sign-in: its session was last seen no later than this.
    at(Date.now() - start + SESSION_IDLE_MS + 1000);
    expect((await client.get('/partner')).status).toBe(303);
  });
});
