import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import request from 'supertest';
import { TEST_ADMIN_TOKEN, testApiEnv } from '../support/api.js';
import { DashboardClient, signedInClient, testEmail, testPassword } from '../support/dashboard.js';
import { type Harness, startHarness } from '../support/harness.js';
import { createOrganization } from '../factories/partners.js';

const run = promisify(execFile);

/** The built CLI (`npm run admin`) against the per-run test database. */
async function cli(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, ['dist/apps/cli/main.js', ...args], {
    env: { ...testApiEnv(), PUBLIC_URL: 'https://partners.example.com', PATH: process.env.PATH },
    timeout: 20000,
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

interface UserView {
  id: string;
  email: string;
  role: string;
  disabled: boolean;
}

describe('Dashboard users for operators', () => {
  let harness: Harness;
  let url: string;
  let organizationId: string;
  const admin = {
    get: (path: string) =>
      request(url).get(path).set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`),
    post: (path: string) =>
      request(url).post(path).set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`),
  };

  beforeAll(async () => {
    harness = await startHarness({ smtp: true });
    url = harness.api.url;
    organizationId = await createOrganization(harness.api.app, { name: 'Invited Wallet' });
  });

  afterAll(async () => {
    await harness.close();
  });

  it('invites by mail with a single-use link that sets the password, and lists users without hashes', async () => {
    const email = testEmail('invitee');

    const res = await admin
      .post(`/admin/organizations/${organizationId}/invitations`)
      .send({ email, role: 'developer' })
      .expect(201);

    const invitation = (res.body as { invitation: Record<string, string> }).invitation;
    expect(invitation).toEqual({
      id: expect.any(String),
      email,
      role: 'developer',
      url: expect.stringMatching(new RegExp(`^${url}/partner/invitations/[A-Za-z0-9_-]{43}$`)),
      expiresAt: expect.any(String),
    });
    const days = (Date.parse(invitation.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const mail = await harness.smtp.waitFor(email, /invited/);
    expect(mail.links).toContain(invitation.url);

    const client = new DashboardClient(url);
    const path = new URL(invitation.url).pathname;
    expect((await client.get(path)).text).toContain('Accept the invitation');
    const password = testPassword();
    const accepted = await client.post(path, { password });
    expect(accepted.status).toBe(303);
    expect((await client.get('/partner')).status).toBe(200);
    // Single use.
    expect((await new DashboardClient(url).get(path)).status).toBe(404);

    const users = await admin.get(`/admin/organizations/${organizationId}/users`).expect(200);
    const listed = (users.body as { users: UserView[] }).users;
    expect(listed).toEqual([
      expect.objectContaining({ email, role: 'developer', disabled: false, disabledAt: null }),
    ]);
    expect(JSON.stringify(users.body)).not.toMatch(/argon2|hash|password/i);
  });

  it('refuses bad invitations with 400, a taken email with 409, an unknown organization with 404', async () => {
    const taken = await signedInClient(harness.api, organizationId, 'viewer');
    const cases: [Record<string, unknown>, number][] = [
      [{ email: 'not-an-email', role: 'owner' }, 400],
      [{ email: testEmail(), role: 'admin' }, 400],
      [{ email: `a\u0000b@example.com`, role: 'owner' }, 400],
      [{ email: 42, role: 'owner' }, 400],
      [{ email: `${'a'.repeat(300)}@example.com`, role: 'owner' }, 400],
      [{ email: testEmail(), role: 'owner', extra: 1 }, 400],
      [{ email: taken.email.toUpperCase(), role: 'owner' }, 409],
    ];
    for (const [body, status] of cases) {
      const res = await admin.post(`/admin/organizations/${organizationId}/invitations`).send(body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), status]);
    }
    await admin
      .post(`/admin/organizations/${randomUUID()}/invitations`)
      .send({ email: testEmail(), role: 'owner' })
      .expect(404);
    await admin.get(`/admin/organizations/${randomUUID()}/users`).expect(404);
    await admin.get('/admin/organizations/not-a-uuid/users').expect(404);
    await request(url).get(`/admin/organizations/${organizationId}/users`).expect(401);
  });

  it('disables a user: their sessions end and they cannot sign in again', async () => {
    const { client, user, email, password } = await signedInClient(
      harness.api,
      organizationId,
      'owner',
    );

    const res = await admin.post(`/admin/users/${user.id}/disable`).expect(200);

    expect((res.body as { user: UserView }).user).toMatchObject({ id: user.id, disabled: true });
    expect((await client.get('/partner')).status).toBe(303);
    const again = new DashboardClient(url);
    await again.get('/partner/login');
    expect((await again.post('/partner/login', { email, password })).status).toBe(401);
    await admin.post(`/admin/users/${randomUUID()}/disable`).expect(404);
    await admin.post('/admin/users/nope/disable').expect(404);
  });

  it('describes the routes in the admin OpenAPI document', async () => {
    const res = await admin.get('/admin/openapi.json').expect(200);
    const paths = (res.body as { paths: Record<string, Record<string, unknown>> }).paths;

    expect(Object.keys(paths['/admin/organizations/{id}/users'])).toContain('get');
    expect(Object.keys(paths['/admin/organizations/{id}/invitations'])).toContain('post');
    expect(Object.keys(paths['/admin/users/{id}/disable'])).toContain('post');
    expect(JSON.stringify(paths['/admin/organizations/{id}/invitations'])).toContain('409');
  });

  it('does the same from the CLI', async () => {
    const email = testEmail('cli');

    const invited = (await cli('user:invite', organizationId, email, '--role', 'viewer')) as {
      invitation: { url: string; role: string };
    };
    expect(invited.invitation.role).toBe('viewer');
    expect(invited.invitation.url).toMatch(
      /^https:\/\/partners\.example\.com\/partner\/invitations\/[A-Za-z0-9_-]{43}$/,
    );
    const client = new DashboardClient(url);
    const path = new URL(invited.invitation.url).pathname;
    await client.get(path);
    expect((await client.post(path, { password: testPassword() })).status).toBe(303);

    const listed = (await cli('user:list', organizationId)) as { users: UserView[] };
    const mine = listed.users.find((u) => u.email === email);
    expect(mine).toMatchObject({ role: 'viewer', disabled: false });
    const disabled = (await cli('user:disable', mine!.id)) as { user: UserView };
    expect(disabled.user.disabled).toBe(true);
    await expect(cli('user:invite', organizationId, email, '--role', 'boss')).rejects.toThrow();
  }, 60_000);
});
