import { jest } from '@jest/globals';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { Clock, SIGN_IN_FAILURES_PER_ACCOUNT } from '#app/accounts';
import { CredentialsService } from '#app/partners';
import { type DashboardClient, signedInClient } from '../support/dashboard.js';
import { waitUntil } from '../support/wait.js';
import { type Harness, startHarness } from '../support/harness.js';
import { createOrganization } from '../factories/partners.js';

const SECRET = /sk_(?:live|test)_[0-9a-f]{48}/;
const PUBLIC_KEY = /pk_(?:live|test)_[0-9a-f]{32}/;

/** The first secret on a page, or null. */
function secretIn(html: string): string | null {
  return SECRET.exec(html)?.[0] ?? null;
}

/**
 * The API keys page over plain HTTP, as a browser without script would use it: roles, the
 * re-authentication before a reveal, its audit entry and the owners' notice (a real SMTP server),
 * foreign organizations' keys, CSRF, and hostile input in every field.
 */
describe('Dashboard API keys page', () => {
  let harness: Harness;
  let db: DataSource;
  let orgId: string;
  let owner: { client: DashboardClient; email: string; password: string };
  let developer: { client: DashboardClient; email: string; password: string };
  let viewer: { client: DashboardClient };

  beforeAll(async () => {
    harness = await startHarness({ smtp: true });
    db = harness.db;
    orgId = await createOrganization(harness.api.app, { name: 'Keyed Exchange' });
    owner = await signedInClient(harness.api, orgId, 'owner');
    developer = await signedInClient(harness.api, orgId, 'developer');
    viewer = await signedInClient(harness.api, orgId, 'viewer');
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    await harness.close();
  });

  async function createKey(client: DashboardClient, name: string) {
    await client.get('/partner/api-keys');
    const res = await client.post('/partner/api-keys', { name });
    expect(res.status).toBe(200);
    const secret = secretIn(res.text);
    const publicKey = PUBLIC_KEY.exec(res.text.slice(res.text.indexOf('Your new key')))?.[0];
    if (!secret || !publicKey) {
      throw new Error('no new key on the page');
    }
    return { publicKey, secret, html: res.text };
  }

  async function v1Status(publicKey: string, secret: string): Promise<number> {
    const res = await request(harness.api.url)
      .get('/v1/events?limit=1')
      .set('Authorization', `Bearer ${publicKey}:${secret}`);
    return res.status;
  }

  it('creates a named key, shows its secret once, and the key works on /v1', async () => {
    const { publicKey, secret } = await createKey(developer.client, 'Production server');

    expect(await v1Status(publicKey, secret)).toBe(200);
    const page = await developer.client.get('/partner/api-keys');
    expect(page.status).toBe(200);
    expect(page.text).toContain(publicKey);
    expect(page.text).toContain('Production server');
    expect(page.text).not.toContain(secret);
    expect(page.headers['cache-control']).toContain('no-store');
  });

  it('asks for the password before revealing, then writes credential.revealed and mails the owners', async () => {
    const { publicKey, secret } = await createKey(developer.client, 'To reveal');
    const page = await developer.client.get('/partner/api-keys');
    expect(page.text).toContain('name="confirmPassword"');

    const refused = await developer.client.post(`/partner/api-keys/${publicKey}/reveal`, {
      confirmPassword: 'not the password',
    });
    expect(refused.status).toBe(403);
    expect(secretIn(refused.text)).toBeNull();

    const revealed = await developer.client.post(`/partner/api-keys/${publicKey}/reveal`, {
      confirmPassword: developer.password,
    });
    expect(revealed.status).toBe(200);
    expect(secretIn(revealed.text)).toBe(secret);

    const audit = await db.query<{ actor: string; organization_id: string }[]>(
      `SELECT actor, organization_id FROM audit_log
        WHERE action = 'credential.revealed' AND target_id = $1`,
      [publicKey],
    );
    expect(audit).toEqual([{ actor: `dashboard:${developer.email}`, organization_id: orgId }]);
    const mail = await harness.smtp.waitFor(owner.email, /secret .* was revealed/);
    expect(mail.text).toContain(developer.email);
    expect(mail.text).toContain(publicKey);
    expect(mail.text).not.toContain(secret);

    // Re-authenticated within 5 minutes: no password asked; past them, asked again.
    expect((await developer.client.get('/partner/api-keys')).text).not.toContain(
      'name="confirmPassword"',
    );
    const again = await developer.client.post(`/partner/api-keys/${publicKey}/reveal`, {});
    expect(secretIn(again.text)).toBe(secret);
    const clock = harness.api.app.get(Clock);
    jest.spyOn(clock, 'now').mockReturnValue(new Date(Date.now() + 6 * 60 * 1000));
    try {
      const late = await developer.client.post(`/partner/api-keys/${publicKey}/reveal`, {});
      expect(late.status).toBe(403);
      expect(secretIn(late.text)).toBeNull();
    } finally {
      jest.restoreAllMocks();
    }
  });

  it('throttles wrong passwords given to reveal a secret, as failed sign-ins are', async () => {
    const guesser = await signedInClient(harness.api, orgId, 'developer');
    const { publicKey } = await createKey(guesser.client, 'Guessed at');

    const statuses: number[] = [];
    for (let i = 0; i <= SIGN_IN_FAILURES_PER_ACCOUNT; i += 1) {
      const res = await guesser.client.post(`/partner/api-keys/${publicKey}/reveal`, {
        confirmPassword: `wrong-${i}`,
      });
      statuses.push(res.status);
      expect(secretIn(res.text)).toBeNull();
    }
    const blocked = await guesser.client.post(`/partner/api-keys/${publicKey}/reveal`, {
      confirmPassword: guesser.password,
    });

    expect(statuses.slice(0, SIGN_IN_FAILURES_PER_ACCOUNT)).toEqual(
      Array<number>(SIGN_IN_FAILURES_PER_ACCOUNT).fill(403),
    );
    expect(statuses.at(-1)).toBe(429);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(secretIn(blocked.text)).toBeNull();
  });

  it('revokes a key: /v1 refuses it within 5 s', async () => {
    const { publicKey, secret } = await createKey(owner.client, 'To revoke');
    expect(await v1Status(publicKey, secret)).toBe(200);

    const res = await owner.client.post(`/partner/api-keys/${publicKey}/revoke`, {});

    expect(res.status).toBe(303);
    await waitUntil(
      'the revoked key to be refused',
      async () => (await v1Status(publicKey, secret)) === 401,
      5000,
    );
    const page = await owner.client.get('/partner/api-keys');
    expect(page.text).toContain('revoked: it no longer works');
    expect(page.text).toContain('Revoked');
  });

  it('rolls a key with the chosen overlap and shows the replacement once', async () => {
    const { publicKey, secret } = await createKey(owner.client, 'To roll');

    const res = await owner.client.post(`/partner/api-keys/${publicKey}/roll`, { overlap: '1h' });

    expect(res.status).toBe(200);
    const replacement = secretIn(res.text.slice(res.text.indexOf('Your replacement key')));
    expect(replacement).not.toBeNull();
    expect(replacement).not.toBe(secret);
    expect(res.text).toContain('keeps working until');
    expect(await v1Status(publicKey, secret)).toBe(200);
    const now = await owner.client.post(`/partner/api-keys/${publicKey}/roll`, { overlap: 'now' });
    expect(now.status).toBe(303);
    expect((await owner.client.get('/partner/api-keys')).text).toContain('already rolled');
  });

  it('shows a viewer the keys without a secret, a password field or any button, and refuses its posts', async () => {
    const { publicKey } = await createKey(owner.client, 'Seen by a viewer');

    const page = await viewer.client.get('/partner/api-keys');

    expect(page.status).toBe(200);
    expect(page.text).toContain(publicKey);
    for (const absent of ['Reveal secret', 'Create key', '>Revoke<', '>Roll<', 'confirmPassword']) {
      expect(page.text).not.toContain(absent);
    }
    expect(secretIn(page.text)).toBeNull();
    for (const [path, fields] of [
      ['/partner/api-keys', { name: 'Viewer key' }],
      [`/partner/api-keys/${publicKey}/reveal`, { confirmPassword: 'anything at all' }],
      [`/partner/api-keys/${publicKey}/revoke`, {}],
      [`/partner/api-keys/${publicKey}/roll`, { overlap: 'now' }],
    ] as const) {
      const res = await viewer.client.post(path, fields);
      expect(res.status).toBe(403);
      expect(secretIn(res.text)).toBeNull();
    }
    expect((await owner.client.get('/partner/api-keys')).text).not.toContain('Viewer key');
  });

  it("never shows or touches another organization's keys, nor the other mode's", async () => {
    const otherOrg = await createOrganization(harness.api.app, { name: 'Other Exchange' });
    const other = await signedInClient(harness.api, otherOrg, 'owner');
    const theirs = await createKey(other.client, 'Theirs');

    const list = await owner.client.get('/partner/api-keys');
    expect(list.text).not.toContain(theirs.publicKey);
    for (const [path, fields] of [
      [`/partner/api-keys/${theirs.publicKey}/reveal`, { confirmPassword: owner.password }],
      [`/partner/api-keys/${theirs.publicKey}/revoke`, {}],
      [`/partner/api-keys/${theirs.publicKey}/roll`, { overlap: 'now' }],
    ] as const) {
      const res = await owner.client.post(path, fields);
      expect(res.status).toBe(404);
      expect(res.text).not.toContain(theirs.secret);
    }
    expect(await v1Status(theirs.publicKey, theirs.secret)).toBe(200);

    // The owner's live key is unknown in test mode.
    const live = await createKey(owner.client, 'Live only');
    await owner.client.post('/partner/mode', { mode: 'test', next: '/partner/api-keys' });
    const testPage = await owner.client.get('/partner/api-keys');
    expect(testPage.text).not.toContain(live.publicKey);
    const res = await owner.client.post(`/partner/api-keys/${live.publicKey}/revoke`, {});
    expect(res.status).toBe(404);
    await owner.client.post('/partner/mode', { mode: 'live', next: '/partner/api-keys' });
    expect(await v1Status(live.publicKey, live.secret)).toBe(200);
  });

  it('creates test keys only, while the organization is under review', async () => {
    const pendingOrg = await createOrganization(harness.api.app, { status: 'pending_review' });
    const { client } = await signedInClient(harness.api, pendingOrg, 'owner');
    await client.post('/partner/mode', { mode: 'live', next: '/partner/api-keys' });

    const livePage = await client.get('/partner/api-keys');
    expect(livePage.text).not.toContain('Create key');
    expect(livePage.text).toContain('once your organization is approved');
    const refused = await client.post('/partner/api-keys', { name: 'Too early' });
    expect(refused.status).toBe(403);
    expect(secretIn(refused.text)).toBeNull();

    await client.post('/partner/mode', { mode: 'test', next: '/partner/api-keys' });
    const { publicKey, secret } = await createKey(client, 'Sandbox');
    expect(publicKey).toMatch(/^pk_test_/);
    expect(await v1Status(publicKey, secret)).toBe(200);
  });

  it('needs the CSRF token and the same origin on every form', async () => {
    const { publicKey } = await createKey(owner.client, 'Guarded');
    for (const [path, fields] of [
      ['/partner/api-keys', { name: 'Forged' }],
      [`/partner/api-keys/${publicKey}/reveal`, { confirmPassword: owner.password }],
      [`/partner/api-keys/${publicKey}/revoke`, {}],
      [`/partner/api-keys/${publicKey}/roll`, { overlap: 'now' }],
    ] as const) {
      const missing = await owner.client.post(path, fields, { csrf: null });
      const foreign = await owner.client.post(path, fields, { origin: 'https://evil.example' });
      expect([missing.status, foreign.status]).toEqual([403, 403]);
      expect(secretIn(missing.text)).toBeNull();
      expect(secretIn(foreign.text)).toBeNull();
    }
    const keys = await harness.api.app
      .get(CredentialsService)
      .list({ organizationId: orgId, livemode: true });
    expect(keys.find((k) => k.publicKey === publicKey)?.state.kind).toBe('active');
    expect(keys.some((k) => k.name === 'Forged')).toBe(false);
  });

  it('answers hostile input in every field with a page, never a 500', async () => {
    const { publicKey } = await createKey(owner.client, 'Fuzzed');
    const hostile = [
      '',
      ' ',
      'a\u0000b',
      '\u0007bell',
      'x'.repeat(100_000),
      '\ud800',
      '<script>alert(1)</script>',
      '"><img src=x onerror=alert(1)>',
      "'; DROP TABLE credentials; --",
      '😀'.repeat(101),
      '\u202eevil',
      '%00',
      '../../etc/passwd',
    ];
    for (const value of hostile) {
      const created = await owner.client.post('/partner/api-keys', { name: value });
      expect(created.status).toBeLessThan(500);
      expect(created.text).not.toContain('<script>alert(1)</script>');
      expect(created.text).not.toContain('<img src=x');
      const rolled = await owner.client.post(`/partner/api-keys/${publicKey}/roll`, {
        overlap: value,
      });
      expect([400, 413]).toContain(rolled.status);
      const revealed = await owner.client.post(`/partner/api-keys/${publicKey}/reveal`, {
        confirmPassword: value,
      });
      expect(revealed.status).toBeLessThan(500);
      // A lone surrogate cannot be percent-encoded as UTF-8: send the bytes it would have been.
      const inPath = value === '\ud800' ? '%ED%A0%80' : encodeURIComponent(value);
      for (const action of ['reveal', 'revoke', 'roll']) {
        const res = await owner.client.post(`/partner/api-keys/${inPath}/${action}`, {
          overlap: 'now',
          confirmPassword: owner.password,
        });
        expect(res.status).toBeLessThan(500);
      }
    }
    const repeated = await owner.client.agent
      .post('/partner/api-keys')
      .set('Origin', harness.api.url)
      .type('form')
      .send(`_csrf=${encodeURIComponent(owner.client.csrf)}&name=a&name=b&name[x]=c`);
    expect(repeated.status).toBe(400);
  });
});
