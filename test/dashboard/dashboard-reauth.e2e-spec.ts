import { randomBytes } from 'node:crypto';
import { jest } from '@jest/globals';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { generateSync } from 'otplib';
import type { Response } from 'supertest';
import type { DataSource } from 'typeorm';
import { Clock, SIGN_IN_FAILURES_PER_ACCOUNT } from '#app/accounts';
import { generateAddress } from '#app/chains';
import {
  addPasskey,
  createDashboardUser,
  DashboardClient,
  enrolTotp,
  flashOf,
  SECOND_FACTORS_PATH as FACTORS,
  testEmail,
  testPassword,
} from '../support/dashboard.js';
import { SoftAuthenticator } from '../support/soft-authenticator.js';
import { type Harness, startHarness } from '../support/harness.js';
import { createOrganization } from '../factories/partners.js';

const SECRET = /sk_(?:live|test)_[0-9a-f]{48}/;
const PUBLIC_KEY = /pk_(?:live|test)_[0-9a-f]{32}/;
const CONFIRMED = 'Confirmed: for 5 minutes, changes ask nothing more.';

/** The form of a page that posts to `action`, as markup; throws when there is none. */
function formOf(html: string, action: string): string {
  const form = html
    .split('<form ')
    .find((part) => part.includes(`action="${action}"`))
    ?.split('</form>')[0];
  if (form === undefined) {
    throw new Error(`no form posting to ${action}`);
  }
  return form;
}

/** A code the authenticator app does not show: the right one, one digit on. */
function wrong(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

/**
 * Re-authentication before sensitive changes with any factor (password, authenticator code,
 * passkey), inline in the forms; notices of second-factor changes by mail; and the second step a
 * passkey makes of the password. Over plain HTTP, as a browser without script sends the forms;
 * the passkey parts through a software authenticator on `localhost` (WebAuthn needs a domain).
 */
describe('Dashboard re-authentication with any factor', () => {
  let harness: Harness;
  let db: DataSource;
  let organizationId: string;
  /** The same api by a domain name, where passkeys work. */
  let domainUrl: string;
  let now = Date.now();

  beforeAll(async () => {
    harness = await startHarness({ smtp: true });
    db = harness.db;
    domainUrl = harness.api.url.replace('127.0.0.1', 'localhost');
    organizationId = await createOrganization(harness.api.app, { name: 'Confirmed Ltd' });
    jest.spyOn(harness.api.app.get(Clock), 'now').mockImplementation(() => new Date(now));
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    await harness.close();
  });

  const codeOf = (secret: string) => generateSync({ secret, epoch: Math.floor(now / 1000) });

  /** Past the 5 minutes of the last re-authentication, and so into a TOTP step unused yet. */
  function pastTheWindow(): void {
    now += 6 * 60_000;
  }

  /** A new owner (every sensitive form is theirs), signed in at `url`. */
  async function newOwner(url = harness.api.url) {
    const made = await createDashboardUser(harness.api, organizationId, 'owner');
    const client = new DashboardClient(url);
    await client.signIn(made.email, made.password);
    return { client, ...made };
  }

  /** An owner with the authenticator app on, past the window its set-up opened. */
  async function ownerWithTotp() {
    const owner = await newOwner();
    const { secret, recoveryCodes } = await enrolTotp(owner.client, codeOf, {
      confirmPassword: owner.password,
    });
    pastTheWindow();
    return { ...owner, secret, recoveryCodes };
  }

  /** What a form post came to, as the person reads it: the next page's message, or the page. */
  async function outcomeOf(client: DashboardClient, res: Response): Promise<string> {
    if (res.status !== 303) {
      return res.text;
    }
    return flashOf((await client.get(res.headers.location)).text) ?? '';
  }

  /** A passkey ceremony: the options `optionsPath` gives the client, answered by `authenticator`. */
  async function passkeyAnswer(
    client: DashboardClient,
    authenticator: SoftAuthenticator,
    optionsPath: string,
  ): Promise<string> {
    const res = await client.post(optionsPath, {});
    const { options } = res.body as { options: PublicKeyCredentialRequestOptionsJSON };
    return JSON.stringify(authenticator.authenticate(options, domainUrl));
  }

  async function createKey(client: DashboardClient): Promise<string> {
    await client.get('/partner/api-keys');
    const created = await client.post('/partner/api-keys', { name: 'Server' });
    const publicKey = PUBLIC_KEY.exec(created.text.slice(created.text.indexOf('Your new key')));
    if (!publicKey) {
      throw new Error('no new key on the page');
    }
    return publicKey[0];
  }

  /** Each sensitive form: its page, where it posts, what it sends, and how it shows success. */
  const SENSITIVE_FORMS: {
    what: string;
    page: string;
    /** Prepares what the form acts on; answers the path it posts to. */
    action: (client: DashboardClient) => Promise<string>;
    fields: () => Record<string, string>;
    done: RegExp;
  }[] = [
    {
      what: 'Reveal secret',
      page: '/partner/api-keys',
      action: async (client) => `/partner/api-keys/${await createKey(client)}/reveal`,
      fields: () => ({}),
      done: SECRET,
    },
    {
      what: 'Change password',
      page: '/partner/security',
      action: () => Promise.resolve('/partner/security/password'),
      fields: () => ({ newPassword: testPassword() }),
      done: /^Password changed\./,
    },
    {
      what: 'Invite',
      page: '/partner/team',
      action: () => Promise.resolve('/partner/team/invitations'),
      fields: () => ({ email: testEmail('invited'), role: 'viewer' }),
      done: /^Invitation sent to /,
    },
    {
      what: 'Save payout address',
      page: '/partner/earnings',
      action: () => Promise.resolve('/partner/earnings/payout-address'),
      fields: () => ({
        payoutAddress: generateAddress('tron', (n) => randomBytes(n)),
        payoutNetwork: 'trc20',
      }),
      done: /^Payout address saved\./,
    },
    {
      what: 'Regenerate recovery codes',
      page: FACTORS,
      action: () => Promise.resolve(`${FACTORS}/recovery-codes`),
      fields: () => ({}),
      done: /Save your recovery codes/,
    },
  ];

  it.each(SENSITIVE_FORMS)(
    '"$what" takes an authenticator code in the same form as the password, and says which was wrong',
    async ({ page, action, fields, done }) => {
      const { client, secret } = await ownerWithTotp();
      const path = await action(client);

      const form = formOf((await client.get(page)).text, path);
      expect(form).toContain('name="confirmPassword"');
      expect(form).toContain('name="totpCode"');
      expect(form).toContain('Authentication code');
      // Either proof suffices, so the browser must not insist on the password.
      expect(form).not.toMatch(/name="confirmPassword"[^>]*required/);

      const wrongCode = await client.post(path, { ...fields(), totpCode: wrong(codeOf(secret)) });
      expect(await outcomeOf(client, wrongCode)).toContain('That code is not right.');
      await client.get(page);
      const bothWrong = await client.post(path, {
        ...fields(),
        confirmPassword: 'not the password at all',
        totpCode: wrong(codeOf(secret)),
      });
      expect(await outcomeOf(client, bothWrong)).toContain('That password or code is not right.');

      await client.get(page);
      const right = await client.post(path, { ...fields(), totpCode: codeOf(secret) });
      expect(await outcomeOf(client, right)).toMatch(done);
      // Re-authenticated for 5 minutes: the form asks nothing now.
      expect(formOf((await client.get(page)).text, path)).not.toContain('confirmPassword');
    },
  );

  it('refuses a code used already in its time step, and a recovery code, to confirm a change', async () => {
    const { email, password, secret, recoveryCodes } = await ownerWithTotp();
    // Signing in spends this step's code; the new session has not re-authenticated.
    const client = new DashboardClient(harness.api.url);
    await client.get('/partner/login');
    await client.post('/partner/login', { email, password });
    const code = codeOf(secret);
    expect((await client.post('/partner/login/second-factor', { code })).status).toBe(303);
    const path = `/partner/api-keys/${await createKey(client)}/reveal`;

    const replayed = await client.post(path, { totpCode: code });
    expect(replayed.status).toBe(403);
    expect(replayed.text).toContain('That code is not right.');
    expect(replayed.text).not.toMatch(SECRET);
    const recovery = await client.post(path, { totpCode: recoveryCodes[0] });
    expect(recovery.status).toBe(403);
    expect(recovery.text).not.toMatch(SECRET);

    now += 30_000;
    const next = await client.post(path, { totpCode: codeOf(secret) });
    expect(next.status).toBe(200);
    expect(next.text).toMatch(SECRET);
  });

  it('throttles wrong codes given to any sensitive form as failed sign-ins, with Retry-After', async () => {
    const { client, email, password, secret } = await ownerWithTotp();
    const invited = testEmail('never');
    await client.get('/partner/team');
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ACCOUNT; i += 1) {
      const res = await client.post('/partner/team/invitations', {
        email: invited,
        role: 'viewer',
        totpCode: wrong(codeOf(secret)),
      });
      expect(await outcomeOf(client, res)).toBe('That code is not right.');
    }
    const blocked = await client.post('/partner/team/invitations', {
      email: invited,
      role: 'viewer',
      confirmPassword: password,
    });
    expect(await outcomeOf(client, blocked)).toBe(
      'Too many wrong attempts. Wait a few minutes, then try again.',
    );
    expect(harness.smtp.mails.some((mail) => mail.to.includes(invited))).toBe(false);

    const key = `/partner/api-keys/${await createKey(client)}/reveal`;
    const reveal = await client.post(key, { totpCode: codeOf(secret) });
    expect(reveal.status).toBe(429);
    expect(Number(reveal.headers['retry-after'])).toBeGreaterThan(0);
    expect(reveal.text).not.toMatch(SECRET);

    const signIn = new DashboardClient(harness.api.url);
    await signIn.get('/partner/login');
    expect((await signIn.post('/partner/login', { email, password })).status).toBe(429);
  });

  it('confirms with a passkey, comes back to the page, and the form then asks nothing', async () => {
    const authenticator = new SoftAuthenticator();
    const { client, email, password } = await newOwner(domainUrl);
    await addPasskey(client, authenticator, 'Laptop', { confirmPassword: password });
    const path = `/partner/api-keys/${await createKey(client)}/reveal`;
    pastTheWindow();

    const form = formOf((await client.get('/partner/api-keys')).text, path);
    expect(form).toContain('name="confirmPassword"');
    expect(form).not.toContain('name="totpCode"');
    expect(form).toContain('Confirm with a passkey');
    expect(form).toContain('data-next="/partner/api-keys"');
    expect((await client.post(path, {})).status).toBe(403);

    const ceremony = () =>
      passkeyAnswer(client, authenticator, '/partner/security/confirm/passkey/options');
    const answer = JSON.parse(await ceremony()) as AuthenticationResponseJSON;
    const forged = { ...answer, response: { ...answer.response, signature: answer.id } };
    const refused = await client.post('/partner/security/confirm/passkey', {
      credential: JSON.stringify(forged),
      next: '/partner/api-keys',
    });
    expect(refused.status).toBe(303);
    expect(refused.headers.location).toBe('/partner/api-keys');
    const refusedPage = (await client.get('/partner/api-keys')).text;
    expect(flashOf(refusedPage)).toBe('That passkey is not right.');
    expect(formOf(refusedPage, path)).toContain('name="confirmPassword"');

    const confirmed = await client.post('/partner/security/confirm/passkey', {
      credential: await ceremony(),
      next: '/partner/api-keys',
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.location).toBe('/partner/api-keys');
    const page = (await client.get('/partner/api-keys')).text;
    expect(flashOf(page)).toBe(CONFIRMED);
    expect(formOf(page, path)).not.toContain('confirmPassword');
    expect(formOf(page, path)).not.toContain('Confirm with a passkey');
    const revealed = await client.post(path, {});
    expect(revealed.status).toBe(200);
    expect(revealed.text).toMatch(SECRET);
    const audit = await db.query<{ action: string }[]>(
      `SELECT action FROM audit_log WHERE actor = $1 AND action = 'credential.revealed'`,
      [`dashboard:${email}`],
    );
    expect(audit).toHaveLength(1);
  });

  it('mails the user a notice of every change of second factor, and audits it', async () => {
    const authenticator = new SoftAuthenticator();
    const { client, email, password } = await newOwner(domainUrl);
    const noticeOf = async (subject: RegExp) => {
      const mail = await harness.smtp.waitFor(email, subject);
      expect(mail.text).toContain(email);
      expect(mail.text).toContain('Confirmed Ltd');
      return mail;
    };

    const { recoveryCodes } = await enrolTotp(client, codeOf, { confirmPassword: password });
    const enabled = await noticeOf(/^Authenticator app turned on/);
    for (const code of recoveryCodes) {
      expect(enabled.text).not.toContain(code);
    }
    now += 30_000;
    await client.get(FACTORS);
    await client.post(`${FACTORS}/recovery-codes`, {});
    await noticeOf(/^New recovery codes/);
    await addPasskey(client, authenticator, 'Phone');
    expect((await noticeOf(/^Passkey added/)).text).toContain('"Phone"');
    const id = /passkeys\/([A-Za-z0-9_-]+)\/remove/.exec((await client.get(FACTORS)).text)?.[1];
    expect(await outcomeOf(client, await client.post(`${FACTORS}/passkeys/${id}/remove`, {}))).toBe(
      'Passkey removed.',
    );
    expect((await noticeOf(/^Passkey removed/)).text).toContain('"Phone"');
    await client.post(`${FACTORS}/totp/disable`, {});
    await noticeOf(/^Authenticator app turned off/);

    const audit = await db.query<{ action: string; details: { name?: string } | null }[]>(
      `SELECT action, details FROM audit_log
        WHERE actor = $1 AND action ~ '^(totp|recovery_codes|passkey)\\.' ORDER BY id`,
      [`dashboard:${email}`],
    );
    expect(audit).toEqual([
      { action: 'totp.enabled', details: null },
      { action: 'recovery_codes.regenerated', details: null },
      { action: 'passkey.registered', details: { name: 'Phone' } },
      { action: 'passkey.removed', details: { name: 'Phone' } },
      { action: 'totp.disabled', details: null },
    ]);
  });

  describe('a user whose second factor is a passkey', () => {
    let email: string;
    let password: string;
    const authenticator = new SoftAuthenticator();

    beforeAll(async () => {
      const owner = await newOwner(domainUrl);
      ({ email, password } = owner);
      await addPasskey(owner.client, authenticator, 'Key', { confirmPassword: password });
    });

    it('is asked for the passkey after the password, and has no session before it', async () => {
      const client = new DashboardClient(domainUrl);
      await client.get('/partner/login');
      const afterPassword = await client.post('/partner/login', { email, password });
      expect(afterPassword.status).toBe(303);
      expect(afterPassword.headers.location).toBe('/partner/login/second-factor');
      expect(client.sessionId()).toBeUndefined();
      expect((await client.get('/partner')).headers.location).toBe('/partner/login');

      const step = (await client.get('/partner/login/second-factor')).text;
      expect(step).toContain('Use a passkey');
      expect(step).not.toContain('name="code"');
      // No authenticator app: no code stands in for the passkey.
      expect((await client.post('/partner/login/second-factor', { code: '123456' })).status).toBe(
        401,
      );
      expect(client.sessionId()).toBeUndefined();

      const signedIn = await client.post('/partner/login/second-factor/passkey', {
        credential: await passkeyAnswer(
          client,
          authenticator,
          '/partner/login/second-factor/passkey/options',
        ),
      });
      expect(signedIn.status).toBe(303);
      expect(signedIn.headers.location).toBe('/partner');
      expect(client.sessionId()).toBeDefined();
      expect((await client.get('/partner')).status).toBe(200);
      const signIns = await db.query<{ details: { factor?: string } }[]>(
        `SELECT details FROM audit_log WHERE actor = $1 AND action = 'user.signed_in' ORDER BY id`,
        [`dashboard:${email}`],
      );
      expect(signIns.at(-1)?.details.factor).toBe('passkey');
    });

    it('signs in with the passkey alone in one step', async () => {
      const client = new DashboardClient(domainUrl);
      await client.get('/partner/login');
      const signedIn = await client.post('/partner/login/passkey', {
        credential: await passkeyAnswer(client, authenticator, '/partner/login/passkey/options'),
      });
      expect(signedIn.status).toBe(303);
      expect(signedIn.headers.location).toBe('/partner');
      expect((await client.get('/partner')).status).toBe(200);
    });

    it('is not let in on an IP address, where no passkey can work', async () => {
      const client = new DashboardClient(harness.api.url);
      await client.get('/partner/login');
      expect((await client.post('/partner/login', { email, password })).headers.location).toBe(
        '/partner/login/second-factor',
      );
      const step = (await client.get('/partner/login/second-factor')).text;
      expect(step).toContain('Passkeys are not available here');
      expect(step).not.toContain('name="code"');
      expect(client.sessionId()).toBeUndefined();
    });
  });
});
