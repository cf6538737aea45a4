import { jest } from '@jest/globals';
import { generateSync } from 'otplib';
import type { DataSource } from 'typeorm';
import { Clock, SIGN_IN_FAILURES_PER_ACCOUNT } from '#app/accounts';
import {
  createDashboardUser,
  DashboardClient,
  enrolTotp,
  SECOND_FACTORS_PATH as FACTORS,
} from '../support/dashboard.js';
import { type Harness, startHarness } from '../support/harness.js';
import { createOrganization } from '../factories/partners.js';

const CODE_REFUSED = 'That code did not work.';

describe('Dashboard second factors over HTTP', () => {
  let harness: Harness;
  let db: DataSource;
  let organizationId: string;
  let now = Date.now();

  beforeAll(async () => {
    harness = await startHarness({ smtp: true });
    db = harness.db;
    organizationId = await createOrganization(harness.api.app, { name: 'Two Step Ltd' });
    jest.spyOn(harness.api.app.get(Clock), 'now').mockImplementation(() => new Date(now));
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    await harness.close();
  });

  /** The next TOTP step: each code is single use, so every use moves the clock on 30 s. */
  function nextStep(): void {
    now += 30_000;
  }

  const codeOf = (secret: string) => generateSync({ secret, epoch: Math.floor(now / 1000) });

  /** A signed-in user with the authenticator app on, through the Security pages. */
  async function enrolledUser(): Promise<{
    client: DashboardClient;
    email: string;
    password: string;
    secret: string;
    recoveryCodes: string[];
    userId: string;
  }> {
    const { user, email, password } = await createDashboardUser(
      harness.api,
      organizationId,
      'developer',
    );
    const client = new DashboardClient(harness.api.url);
    await client.signIn(email, password);
    const before = client.sessionId();
    const { secret, recoveryCodes, enrolmentPage } = await enrolTotp(client, codeOf, {
      confirmPassword: password,
    });
    expect(enrolmentPage).toContain('<svg role="img"');
    expect(recoveryCodes).toHaveLength(10);
    expect(client.sessionId()).not.toBe(before);
    nextStep();
    return { client, email, password, secret, recoveryCodes, userId: user.id };
  }

  /** A fresh browser that gave the right password: now at the second step. */
  async function atSecondStep(email: string, password: string): Promise<DashboardClient> {
    const client = new DashboardClient(harness.api.url);
    await client.get('/partner/login');
    const res = await client.post('/partner/login', { email, password });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/partner/login/second-factor');
    expect(client.sessionId()).toBeUndefined();
    const page = await client.get('/partner/login/second-factor');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Authentication code');
    return client;
  }

  it('enrolment is audited and the second step then takes a code once, a recovery code once', async () => {
    const { email, password, secret, recoveryCodes, userId } = await enrolledUser();
    const audit = await db.query<{ action: string }[]>(
      `SELECT action FROM audit_log WHERE actor = $1 ORDER BY id`,
      [`dashboard:${email}`],
    );
    expect(audit.map((a) => a.action)).toContain('totp.enabled');

    // The password alone reaches no signed-in page.
    const halfway = await atSecondStep(email, password);
    expect((await halfway.get('/partner')).status).toBe(303);

    const code = codeOf(secret);
    const signedIn = await halfway.post('/partner/login/second-factor', { code });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.location).toBe('/partner');
    expect(halfway.sessionId()).toBeDefined();
    expect((await halfway.get('/partner')).status).toBe(200);

    const replay = await atSecondStep(email, password);
    const replayed = await replay.post('/partner/login/second-factor', { code });
    expect(replayed.status).toBe(401);
    expect(replayed.text).toContain(CODE_REFUSED);

    const withRecovery = await atSecondStep(email, password);
    const recovered = await withRecovery.post('/partner/login/second-factor', {
      code: recoveryCodes[0].toUpperCase(),
    });
    expect(recovered.status).toBe(303);
    const again = await atSecondStep(email, password);
    expect(
      (await again.post('/partner/login/second-factor', { code: recoveryCodes[0] })).status,
    ).toBe(401);

    const signIns = await db.query<{ details: { factor?: string } }[]>(
      `SELECT details FROM audit_log WHERE actor = $1 AND action = 'user.signed_in' ORDER BY id`,
      [`dashboard:${email}`],
    );
    expect(signIns.map((s) => s.details.factor)).toEqual([undefined, 'totp', 'recovery_code']);
    expect(userId).toBeDefined();
  });

  it('never takes one user’s code or recovery code for another', async () => {
    const ann = await enrolledUser();
    const bob = await enrolledUser();
    const client = await atSecondStep(bob.email, bob.password);
    expect(
      (await client.post('/partner/login/second-factor', { code: codeOf(ann.secret) })).status,
    ).toBe(401);
    expect(
      (await client.post('/partner/login/second-factor', { code: ann.recoveryCodes[1] })).status,
    ).toBe(401);
    expect(
      (await client.post('/partner/login/second-factor', { code: codeOf(bob.secret) })).status,
    ).toBe(303);
  });

  it('throttles wrong codes like wrong passwords, with Retry-After', async () => {
    const { email, password, secret } = await enrolledUser();
    const client = await atSecondStep(email, password);
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ACCOUNT; i += 1) {
      expect((await client.post('/partner/login/second-factor', { code: '000000' })).status).toBe(
        401,
      );
    }
    const blocked = await client.post('/partner/login/second-factor', { code: codeOf(secret) });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(client.sessionId()).toBeUndefined();
  });

  it('without the pending sign-in, the second step sends back to the sign-in page', async () => {
    const client = new DashboardClient(harness.api.url);
    const page = await client.get('/partner/login/second-factor');
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe('/partner/login');
    await client.get('/partner/login');
    const posted = await client.post('/partner/login/second-factor', { code: '123456' });
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe('/partner/login');
  });

  it('changes need a re-authentication within 5 minutes, and then give a new session id', async () => {
    const { client, password, secret } = await enrolledUser();
    now += 6 * 60_000;
    await client.get(FACTORS);
    const refused = await client.post(`${FACTORS}/totp/disable`, {});
    expect(refused.status).toBe(303);
    expect((await client.get(FACTORS)).text).toContain(
      'Confirm with your password or an authentication code to change how you sign in.',
    );
    expect((await client.get(FACTORS)).text).toContain('Turn off authenticator app');

    const wrong = await client.post(`${FACTORS}/totp/disable`, {
      confirmPassword: 'not it at all',
    });
    expect(wrong.status).toBe(303);
    expect((await client.get(FACTORS)).text).toContain('Turn off authenticator app');

    // A code confirms too ("Confirm it's you"), and counts for 5 minutes.
    await client.get('/partner/security/confirm');
    const confirm = await client.post('/partner/security/confirm', {
      totpCode: codeOf(secret),
      next: FACTORS,
    });
    expect(confirm.status).toBe(303);
    nextStep();
    const before = client.sessionId();
    await client.get(FACTORS);
    const regenerated = await client.post(`${FACTORS}/recovery-codes`, {});
    expect(regenerated.status).toBe(200);
    expect(regenerated.text).toContain('Save your recovery codes');
    expect(client.sessionId()).not.toBe(before);

    await client.get(FACTORS);
    const off = await client.post(`${FACTORS}/totp/disable`, { confirmPassword: password });
    expect(off.status).toBe(303);
    expect((await client.get(FACTORS)).text).toContain('Set up authenticator app');
  });

  it('answers hostile input in every field with no 500', async () => {
    const { client } = await enrolledUser();
    const hostile = [
      '\u0000',
      'x'.repeat(70_000),
      '\uD800',
      '١٢٣٤٥٦',
      '<script>alert(1)</script>',
      '{"id":"a","rawId":"a","type":"public-key","response":{}}',
      '[]',
      'null',
    ];
    const signedInRoutes: [string, string[]][] = [
      [`${FACTORS}/totp`, ['confirmPassword']],
      [`${FACTORS}/totp/confirm`, ['code', 'confirmPassword']],
      [`${FACTORS}/recovery-codes`, ['confirmPassword']],
      [`${FACTORS}/passkeys/options`, ['confirmPassword', 'name']],
      [`${FACTORS}/passkeys`, ['credential', 'name', 'confirmPassword']],
      [`${FACTORS}/passkeys/${'A'.repeat(20)}/rename`, ['name', 'confirmPassword']],
      [`${FACTORS}/passkeys/%00/remove`, ['confirmPassword']],
      ['/partner/security/confirm', ['confirmPassword', 'totpCode', 'next']],
      ['/partner/security/confirm/passkey', ['credential', 'next']],
      ['/partner/security/confirm/passkey/options', ['next']],
    ];
    for (const [path, fields] of signedInRoutes) {
      for (const field of fields) {
        for (const value of hostile) {
          await client.get(FACTORS);
          const res = await client.post(path, { [field]: value });
          expect([path, field, res.status < 500]).toEqual([path, field, true]);
        }
      }
    }
    // The wrong proofs above count as failed sign-ins and block that account: another one signs in.
    const other = await enrolledUser();
    const halfway = await atSecondStep(other.email, other.password);
    const publicRoutes: [string, string[]][] = [
      ['/partner/login/second-factor', ['code', 'next']],
      ['/partner/login/second-factor/passkey', ['credential', 'next']],
      ['/partner/login/second-factor/passkey/options', ['next']],
      ['/partner/login/passkey', ['credential', 'next']],
      ['/partner/login/passkey/options', ['next']],
    ];
    for (const [path, fields] of publicRoutes) {
      for (const field of fields) {
        for (const value of hostile.slice(0, 4)) {
          const res = await halfway.post(path, { [field]: value });
          expect([path, field, res.status < 500]).toEqual([path, field, true]);
        }
      }
    }
  });

  it('offers no passkey ceremony on an IP address', async () => {
    const client = new DashboardClient(harness.api.url);
    await client.get('/partner/login');
    const res = await client.post('/partner/login/passkey/options', {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Passkeys are not available at this address.' });
  });
});
