import { randomBytes, randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { generateSync } from 'otplib';
import type { DataSource } from 'typeorm';
import {
  CHALLENGE_TTL_MS,
  DashboardFactorsModule,
  MAX_PASSKEYS_PER_USER,
  PasskeysService,
  PENDING_SIGN_IN_TTL_MS,
  PendingSignInsService,
  TotpService,
  type RelyingParty,
} from '#app/dashboard-factors';
import { CoreModule } from '#app/core';
import {
  openTestDataSource,
  testDatabaseUrl,
  testRedisPrefix,
  testRedisUrl,
} from './support/database.js';
import { SoftAuthenticator } from './support/soft-authenticator.js';

const RP: RelyingParty = {
  id: 'localhost',
  origin: 'http://localhost:3000',
  name: 'Swap Partners',
};
const START = Date.parse('2026-11-25T12:00:10Z');

/** The secret an enrolment shows, from its otpauth URI, as an authenticator app reads it. */
function secretOf(uri: string): string {
  const secret = new URL(uri).searchParams.get('secret');
  if (secret === null) {
    throw new Error(`no secret in ${uri}`);
  }
  return secret;
}

function codeAt(secret: string, ms: number): string {
  return generateSync({ secret, epoch: Math.floor(ms / 1000) });
}

describe('Dashboard second factors (service level, real Postgres)', () => {
  let app: INestApplicationContext;
  let db: DataSource;
  let now = START;
  let totp: TotpService;
  let passkeys: PasskeysService;
  let pending: PendingSignInsService;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        CoreModule.forRoot({
          database: { url: testDatabaseUrl(), timeoutMs: 10_000 },
          redis: { url: testRedisUrl(), keyPrefix: testRedisPrefix() },
          credentials: { encryptionKey: randomBytes(32) },
        }),
        DashboardFactorsModule.withClock(() => now),
      ],
    }).compile();
    app = await moduleRef.init();
    totp = app.get(TotpService);
    passkeys = app.get(PasskeysService);
    pending = app.get(PendingSignInsService);
    db = await openTestDataSource();
  });

  afterAll(async () => {
    await db.destroy();
    await app.close();
  });

  beforeEach(() => {
    now = START;
  });

  let organizationId: string;

  /** A dashboard user row (the factors' tables refer to it). */
  async function newUser(): Promise<string> {
    if (organizationId === undefined) {
      [{ id: organizationId }] = await db.query<{ id: string }[]>(
        `INSERT INTO organizations (name, fee_percent, status) VALUES ('Factors', 1, 'active')
         RETURNING id`,
      );
    }
    const id = randomUUID();
    await db.query(
      `INSERT INTO dashboard_users (id, organization_id, email, password_hash, role)
       VALUES ($1, $2, $3, 'x', 'owner')`,
      [id, organizationId, `${id}@example.com`],
    );
    return id;
  }

  /** A user with TOTP on; answers the secret and the recovery codes. */
  async function enrolled(given?: string): Promise<{
    userId: string;
    secret: string;
    recoveryCodes: string[];
  }> {
    const userId = given ?? (await newUser());
    const enrolment = await totp.beginEnrolment(userId, `${userId}@example.com`);
    if (enrolment === null) {
      throw new Error('enrolment refused');
    }
    const secret = secretOf(enrolment.uri);
    const recoveryCodes = await totp.confirmEnrolment(userId, codeAt(secret, now));
    if (recoveryCodes === null) {
      throw new Error('confirmation refused');
    }
    now += 30_000;
    return { userId, secret, recoveryCodes };
  }

  describe('TOTP enrolment', () => {
    it('shows a QR code and a key for the user, keeps the secret sealed and turns on with a right code', async () => {
      const userId = await newUser();
      const enrolment = await totp.beginEnrolment(userId, 'ann@example.com');
      expect(enrolment).not.toBeNull();
      const uri = new URL(enrolment!.uri);
      expect(uri.protocol).toBe('otpauth:');
      expect(uri.host).toBe('totp');
      expect(decodeURIComponent(uri.pathname)).toBe('/Swap Partners:ann@example.com');
      expect(uri.searchParams.get('issuer')).toBe('Swap Partners');
      const secret = secretOf(enrolment!.uri);
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(enrolment!.manualKey.replace(/ /g, '')).toBe(secret);
      expect(enrolment!.qrSvg).toMatch(/^<svg role="img" aria-label="[^"]+"/);
      expect(enrolment!.qrSvg).not.toMatch(/<script|style=/i);

      const [row] = await db.query<{ secret_ciphertext: string }[]>(
        `SELECT secret_ciphertext FROM dashboard_totp WHERE user_id = $1`,
        [userId],
      );
      expect(row.secret_ciphertext).not.toContain(secret);
      expect(Buffer.from(row.secret_ciphertext, 'base64').toString('latin1')).not.toContain(secret);
      expect(await totp.status(userId)).toEqual({
        enabled: false,
        pending: true,
        recoveryCodesLeft: 0,
      });

      const wrong = codeAt(secret, now + 10 * 60_000);
      expect(await totp.confirmEnrolment(userId, wrong)).toBeNull();
      expect((await totp.pendingEnrolment(userId, 'ann@example.com'))?.uri).toBe(enrolment!.uri);

      const codes = await totp.confirmEnrolment(userId, codeAt(secret, now));
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      for (const code of codes!) {
        expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
      }
      expect(await totp.status(userId)).toEqual({
        enabled: true,
        pending: false,
        recoveryCodesLeft: 10,
      });
      const stored = await db.query<{ code_digest: string }[]>(
        `SELECT code_digest FROM dashboard_recovery_codes WHERE user_id = $1`,
        [userId],
      );
      expect(stored).toHaveLength(10);
      for (const { code_digest } of stored) {
        expect(codes!.some((c) => code_digest.includes(c.replace('-', '')))).toBe(false);
      }
    });

    it('refuses a new enrolment while TOTP is on, and starting over replaces a pending secret', async () => {
      const { userId } = await enrolled();
      expect(await totp.beginEnrolment(userId, 'x@example.com')).toBeNull();

      const other = await newUser();
      const first = await totp.beginEnrolment(other, 'y@example.com');
      const second = await totp.beginEnrolment(other, 'y@example.com');
      expect(second!.uri).not.toBe(first!.uri);
      expect(await totp.confirmEnrolment(other, codeAt(secretOf(first!.uri), now))).toBeNull();
      expect(await totp.confirmEnrolment(other, codeAt(secretOf(second!.uri), now))).toHaveLength(
        10,
      );
    });
  });

  describe('TOTP codes', () => {
    it('accepts a current code once, and the next step’s code after it', async () => {
      const { userId, secret } = await enrolled();
      const code = codeAt(secret, now);
      expect(await totp.verify(userId, code)).toBe('totp');
      expect(await totp.verify(userId, code)).toBeNull();
      now += 30_000;
      expect(await totp.verify(userId, codeAt(secret, now).replace(/(...)/, '$1 '))).toBe('totp');
    });

    it('accepts one step of drift either side, not two', async () => {
      const { userId, secret } = await enrolled();
      // Clear of the steps the confirmation used.
      now += 90_000;
      expect(await totp.verify(userId, codeAt(secret, now - 60_000))).toBeNull();
      expect(await totp.verify(userId, codeAt(secret, now + 60_000))).toBeNull();
      expect(await totp.verify(userId, codeAt(secret, now - 30_000))).toBe('totp');
      expect(await totp.verify(userId, codeAt(secret, now + 30_000))).toBe('totp');
      // A code older than the last accepted one is spent too, though still inside the window.
      expect(await totp.verify(userId, codeAt(secret, now))).toBeNull();
    });

    it('lets exactly one of many simultaneous requests with one code through', async () => {
      const { userId, secret } = await enrolled();
      const code = codeAt(secret, now);
      const results = await Promise.all(Array.from({ length: 8 }, () => totp.verify(userId, code)));
      expect(results.filter((r) => r === 'totp')).toHaveLength(1);
    });

    it('never takes one user’s code or recovery code for another', async () => {
      const ann = await enrolled();
      const bob = await enrolled();
      expect(await totp.verify(bob.userId, codeAt(ann.secret, now))).toBeNull();
      expect(await totp.verify(bob.userId, ann.recoveryCodes[0])).toBeNull();
      expect(await totp.verify(ann.userId, ann.recoveryCodes[0])).toBe('recovery_code');
    });

    it('answers null, never throws, for hostile input', async () => {
      const { userId } = await enrolled();
      const hostile = [
        '',
        '\u0000',
        '12345\u0000',
        '１２３４５６',
        '٠١٢٣٤٥',
        '123456'.repeat(100_000),
        '\uD800',
        "' OR 1=1 --",
        '🙂🙂🙂🙂🙂🙂',
        'abcde-fghi\u0000',
      ];
      for (const input of hostile) {
        expect(await totp.verify(userId, input)).toBeNull();
        expect(await totp.confirmEnrolment(userId, input)).toBeNull();
      }
      expect(await totp.verify(randomUUID(), '123456')).toBeNull();
    });
  });

  describe('recovery codes', () => {
    it('work once each, however typed, and count down', async () => {
      const { userId, recoveryCodes } = await enrolled();
      const [first, second] = recoveryCodes;
      expect(await totp.verify(userId, first)).toBe('recovery_code');
      expect(await totp.verify(userId, first)).toBeNull();
      expect(await totp.verify(userId, ` ${second.toUpperCase().replace('-', ' ')} `)).toBe(
        'recovery_code',
      );
      expect((await totp.status(userId)).recoveryCodesLeft).toBe(8);
    });

    it('are replaced whole when regenerated', async () => {
      const { userId, recoveryCodes } = await enrolled();
      const fresh = await totp.regenerateRecoveryCodes(userId);
      expect(fresh).toHaveLength(10);
      expect(await totp.verify(userId, recoveryCodes[0])).toBeNull();
      expect(await totp.verify(userId, fresh![0])).toBe('recovery_code');
      expect(await totp.regenerateRecoveryCodes(randomUUID())).toBeNull();
    });
  });

  it('disabling TOTP removes the secret and the recovery codes', async () => {
    const { userId, secret, recoveryCodes } = await enrolled();
    expect(await totp.disable(userId)).toBe(true);
    expect(await totp.verify(userId, codeAt(secret, now))).toBeNull();
    expect(await totp.verify(userId, recoveryCodes[1])).toBeNull();
    expect(await totp.status(userId)).toEqual({
      enabled: false,
      pending: false,
      recoveryCodesLeft: 0,
    });
    const [{ count }] = await db.query<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM dashboard_recovery_codes WHERE user_id = $1`,
      [userId],
    );
    expect(count).toBe(0);
    expect(await totp.disable(userId)).toBe(false);
  });

  describe('passkeys', () => {
    const user = async () => {
      const id = await newUser();
      return { id, email: `${id}@example.com` };
    };

    async function registered(
      given?: { id: string; email: string },
      authenticator = new SoftAuthenticator(),
      name = 'Laptop',
    ) {
      const owner = given ?? (await user());
      const binding = randomUUID();
      const options = await passkeys.registrationOptions(owner, RP, binding);
      const view = await passkeys.register(
        owner,
        RP,
        binding,
        authenticator.register(options!, RP.origin),
        name,
      );
      if (view === null) {
        throw new Error('registration refused');
      }
      return { owner, authenticator, view };
    }

    it('registers a passkey that needs user verification, with no attestation, discoverable', async () => {
      const owner = await user();
      const options = await passkeys.registrationOptions(owner, RP, 'browser-1');
      expect(options!.rp).toEqual({ id: 'localhost', name: 'Swap Partners' });
      expect(options!.user.name).toBe(owner.email);
      expect(options!.authenticatorSelection).toMatchObject({
        residentKey: 'required',
        userVerification: 'required',
      });
      expect(options!.attestation).toBe('none');
      const authenticator = new SoftAuthenticator();
      const view = await passkeys.register(
        owner,
        RP,
        'browser-1',
        authenticator.register(options!, RP.origin),
        '  ',
      );
      expect(view).toMatchObject({ name: 'Passkey', lastUsedAt: null, synced: false });
      expect(await passkeys.list(owner.id)).toEqual([view]);

      const again = await passkeys.registrationOptions(owner, RP, 'browser-1');
      expect(again!.excludeCredentials!.map((c) => c.id)).toEqual([view!.id]);
    });

    it('signs a user in with a passkey alone, once per challenge', async () => {
      const { owner, authenticator, view } = await registered();
      const options = await passkeys.signInOptions(RP, 'browser-2');
      expect(options.userVerification).toBe('required');
      expect(options.allowCredentials ?? []).toEqual([]);
      const response = authenticator.authenticate(options, RP.origin);
      expect(await passkeys.signIn(RP, 'browser-2', response)).toBe(owner.id);
      expect(await passkeys.signIn(RP, 'browser-2', response)).toBeNull();

      const [row] = await db.query<{ counter: string; last_used_at: Date | null }[]>(
        `SELECT counter, last_used_at FROM dashboard_passkeys WHERE id = $1`,
        [view.id],
      );
      expect(Number(row.counter)).toBe(1);
      expect(row.last_used_at?.getTime()).toBe(now);
    });

    it('refuses an answer from another browser, after expiry, for another site, or without user verification', async () => {
      const { authenticator } = await registered();

      const options = await passkeys.signInOptions(RP, 'browser-a');
      expect(
        await passkeys.signIn(RP, 'browser-b', authenticator.authenticate(options, RP.origin)),
      ).toBeNull();

      const late = await passkeys.signInOptions(RP, 'browser-a');
      now += CHALLENGE_TTL_MS + 1;
      expect(
        await passkeys.signIn(RP, 'browser-a', authenticator.authenticate(late, RP.origin)),
      ).toBeNull();

      const phished = await passkeys.signInOptions(RP, 'browser-a');
      expect(
        await passkeys.signIn(
          RP,
          'browser-a',
          authenticator.authenticate(phished, 'https://partner-login.example'),
        ),
      ).toBeNull();

      const otherSite = await passkeys.signInOptions(RP, 'browser-a');
      expect(
        await passkeys.signIn(
          RP,
          'browser-a',
          authenticator.authenticate({ ...otherSite, rpId: 'example.com' }, RP.origin),
        ),
      ).toBeNull();

      authenticator.userVerified = false;
      const unverified = await passkeys.signInOptions(RP, 'browser-a');
      expect(
        await passkeys.signIn(RP, 'browser-a', authenticator.authenticate(unverified, RP.origin)),
      ).toBeNull();
    });

    it('refuses a cloned authenticator whose counter goes back', async () => {
      const { authenticator } = await registered();
      const first = await passkeys.signInOptions(RP, 'browser-c');
      expect(
        await passkeys.signIn(RP, 'browser-c', authenticator.authenticate(first, RP.origin)),
      ).not.toBeNull();
      authenticator.credentials[0].counter = 0;
      const second = await passkeys.signInOptions(RP, 'browser-c');
      expect(
        await passkeys.signIn(RP, 'browser-c', authenticator.authenticate(second, RP.origin)),
      ).toBeNull();
    });

    it('as a second factor, proves only the user’s own passkey', async () => {
      const ann = await registered();
      const bob = await registered();
      const options = await passkeys.userOptions(ann.owner.id, RP, 'browser-d', 'second_factor');
      expect(options!.allowCredentials!.map((c) => c.id)).toEqual([ann.view.id]);
      const bobs = bob.authenticator.authenticate({ ...options!, allowCredentials: [] }, RP.origin);
      expect(await passkeys.verifyUser(ann.owner.id, RP, 'browser-d', 'second_factor', bobs)).toBe(
        false,
      );

      const again = await passkeys.userOptions(ann.owner.id, RP, 'browser-d', 'second_factor');
      const anns = ann.authenticator.authenticate(again!, RP.origin);
      expect(await passkeys.verifyUser(bob.owner.id, RP, 'browser-d', 'second_factor', anns)).toBe(
        false,
      );

      const reauth = await passkeys.userOptions(ann.owner.id, RP, 'browser-d', 'reauth');
      const answer = ann.authenticator.authenticate(reauth!, RP.origin);
      expect(
        await passkeys.verifyUser(ann.owner.id, RP, 'browser-d', 'second_factor', answer),
      ).toBe(false);
      const reauth2 = await passkeys.userOptions(ann.owner.id, RP, 'browser-d', 'reauth');
      expect(
        await passkeys.verifyUser(
          ann.owner.id,
          RP,
          'browser-d',
          'reauth',
          ann.authenticator.authenticate(reauth2!, RP.origin),
        ),
      ).toBe(true);

      expect(await passkeys.userOptions(randomUUID(), RP, 'browser-d', 'reauth')).toBeNull();
    });

    it('renames and removes only the user’s own passkeys', async () => {
      const ann = await registered();
      const bob = await registered();
      expect(await passkeys.rename(bob.owner.id, ann.view.id, 'Stolen')).toBe(false);
      expect(await passkeys.remove(bob.owner.id, ann.view.id)).toBe(false);
      expect(await passkeys.rename(ann.owner.id, ann.view.id, 'x'.repeat(65))).toBe(false);
      expect(await passkeys.rename(ann.owner.id, ann.view.id, 'Key\u0000')).toBe(false);
      expect(await passkeys.rename(ann.owner.id, ann.view.id, ' Phone 📱 ')).toBe(true);
      expect((await passkeys.list(ann.owner.id))[0].name).toBe('Phone 📱');
      expect(await passkeys.remove(ann.owner.id, ann.view.id)).toBe(true);
      expect(await passkeys.list(ann.owner.id)).toEqual([]);
      expect(await passkeys.list(bob.owner.id)).toHaveLength(1);
    });

    it(`stops at ${MAX_PASSKEYS_PER_USER} passkeys per user`, async () => {
      const owner = await user();
      const authenticator = new SoftAuthenticator();
      for (let i = 0; i < MAX_PASSKEYS_PER_USER; i += 1) {
        await registered(owner, authenticator, `Key ${i}`);
      }
      expect(await passkeys.registrationOptions(owner, RP, 'browser-e')).toBeNull();
    });

    it('answers null, never throws, for hostile answers', async () => {
      const { owner, authenticator } = await registered();
      const good = authenticator.authenticate(
        await passkeys.signInOptions(RP, 'browser-f'),
        RP.origin,
      );
      const hostile: unknown[] = [
        null,
        'string',
        42,
        [],
        {},
        { ...good, type: 'other' },
        { ...good, rawId: 'different' },
        { ...good, id: 'a'.repeat(5000), rawId: 'a'.repeat(5000) },
        { ...good, id: '\u0000', rawId: '\u0000' },
        { ...good, response: { ...good.response, signature: 'not base64url!' } },
        { ...good, response: { ...good.response, clientDataJSON: 'e30' } },
        { ...good, response: { ...good.response, authenticatorData: 'AAAA' } },
        { ...good, response: { ...good.response, userHandle: 'AAAA' } },
        { ...good, response: { ...good.response, signature: ['x'] } },
        { ...good, authenticatorAttachment: 'toaster' },
      ];
      for (const answer of hostile) {
        await passkeys.signInOptions(RP, 'browser-f');
        expect(await passkeys.signIn(RP, 'browser-f', answer)).toBeNull();
      }
      for (const answer of hostile) {
        const options = await passkeys.registrationOptions(owner, RP, 'browser-f');
        expect(options).not.toBeNull();
        expect(await passkeys.register(owner, RP, 'browser-f', answer, 'Name')).toBeNull();
      }
      expect(await passkeys.list(owner.id)).toHaveLength(1);
    });
  });

  describe('pending sign-ins', () => {
    it('name their user for 5 minutes, complete once, and keep only a digest', async () => {
      const userId = await newUser();
      const token = await pending.start(userId);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await pending.userOf(token)).toBe(userId);
      const stored = await db.query<{ token_hash: string }[]>(
        `SELECT token_hash FROM dashboard_pending_sign_ins WHERE user_id = $1`,
        [userId],
      );
      expect(stored).toHaveLength(1);
      expect(stored[0].token_hash).not.toContain(token);

      const results = await Promise.all([pending.complete(token), pending.complete(token)]);
      expect(results.sort()).toEqual([false, true]);
      expect(await pending.userOf(token)).toBeNull();

      const late = await pending.start(userId);
      now += PENDING_SIGN_IN_TTL_MS;
      expect(await pending.userOf(late)).toBeNull();
      for (const hostile of [undefined, 42, '', 'x'.repeat(10_000), `${late}\u0000`]) {
        expect(await pending.userOf(hostile)).toBeNull();
      }
    });
  });
});
