import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { Test } from '@nestjs/testing';
import type { CredentialMode } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import type { CredentialEntity, OrganizationEntity } from '#app/persistence';
import { KEY_VALUE_STORE, MemoryStore, type KeyValueStore } from '#app/redis';
import { CredentialAuthenticator } from './credential.authenticator.js';
import { CredentialCipher, newPublicKey, newSecret } from './credential.cipher.js';
import {
  CredentialsRepository,
  type CredentialForAuthentication,
} from './credentials.repository.js';

interface CredentialWithOrganization {
  credential: CredentialEntity;
  organization: OrganizationEntity;
}

/** `credentials` and `organizations` in memory; counts the lookups authentication makes. */
class FakeCredentials {
  readonly rows = new Map<string, CredentialWithOrganization>();
  lookups = 0;
  /** Credential ids in the order their use was written. */
  readonly usesNoted: string[] = [];

  constructor(private readonly cipher: CredentialCipher) {}

  /** Issues a credential and answers its bearer header. */
  issue(mode: CredentialMode): { publicKey: string; secret: string; bearer: string } {
    const publicKey = newPublicKey(mode);
    const secret = newSecret(mode);
    const organization = {
      id: randomUUID(),
      status: 'active',
      feePercent: '0.5',
      providerActivated: true,
    } as OrganizationEntity;
    const credential = {
      id: randomUUID(),
      organizationId: organization.id,
      publicKey,
      secretDigest: this.cipher.digest(secret),
      mode,
      revokedAt: null,
      expiresAt: null,
    } as CredentialEntity;
    this.rows.set(publicKey, { credential, organization });
    return { publicKey, secret, bearer: `Bearer ${publicKey}:${secret}` };
  }

  revoke(publicKey: string): void {
    const row = this.rows.get(publicKey);
    if (row) {
      row.credential.revokedAt = new Date();
    }
  }

  expire(publicKey: string, at: Date): void {
    const row = this.rows.get(publicKey);
    if (row) {
      row.credential.expiresAt = at;
    }
  }

  noteUsed(credentialId: string): Promise<void> {
    this.usesNoted.push(credentialId);
    return Promise.resolve();
  }

  findActiveForAuthentication(publicKey: string): Promise<CredentialForAuthentication | null> {
    this.lookups += 1;
    const row = this.rows.get(publicKey);
    const expiresAt = row?.credential.expiresAt ?? null;
    if (!row || row.credential.revokedAt !== null || (expiresAt && expiresAt <= new Date())) {
      return Promise.resolve(null);
    }
    const { credential, organization } = row;
    return Promise.resolve({
      secretDigest: credential.secretDigest,
      expiresAt,
      partner: {
        credentialId: credential.id,
        publicKey: credential.publicKey,
        organizationId: organization.id,
        livemode: credential.mode === 'live',
        organizationStatus: organization.status,
        feePercent: organization.feePercent,
        providerActivated: organization.providerActivated,
      },
    });
  }
}

/** A store whose pub/sub is down, as when Redis is unreachable at start-up. */
class NoFanOutStore extends MemoryStore {
  override subscribe(): Promise<void> {
    return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
  }
  override publish(): Promise<void> {
    return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
  }
}

/**
 * Moves the clock the cache reads (`performance.now`) forward without waiting. The cache reuses
 * a reading for 1 ms, so each step also lets a few real milliseconds pass.
 */
function advancingClock(): { advance(ms: number): Promise<void> } {
  // Frozen between advances, so a slow machine's own passing time never moves the windows.
  const startMs = performance.now();
  let offsetMs = 0;
  jest.spyOn(performance, 'now').mockImplementation(() => startMs + offsetMs);
  return {
    advance: async (ms) => {
      offsetMs += ms;
      await new Promise((resolve) => setTimeout(resolve, 5));
    },
  };
}

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

describe(CredentialAuthenticator.name, () => {
  const cipher = new CredentialCipher(randomBytes(32));
  let credentials: FakeCredentials;
  let store: KeyValueStore;
  let sut: CredentialAuthenticator;

  /** One api replica: its own authenticator and cache, the shared credentials and store. */
  async function replica(replicaStore: KeyValueStore = store): Promise<CredentialAuthenticator> {
    const moduleRef = await Test.createTestingModule({
      providers: [
        CredentialAuthenticator,
        { provide: CredentialsRepository, useValue: credentials },
        { provide: CredentialCipher, useValue: cipher },
        { provide: KEY_VALUE_STORE, useValue: replicaStore },
      ],
    }).compile();
    await moduleRef.init();
    return moduleRef.get(CredentialAuthenticator);
  }

  beforeEach(async () => {
    credentials = new FakeCredentials(cipher);
    store = new MemoryStore();
    sut = await replica();
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await store.close();
  });

  it('accepts a live credential and names its organization', async () => {
    const { publicKey, bearer } = credentials.issue('live');
    const { credential, organization } = credentials.rows.get(publicKey) ?? {};

    await expect(sut.authenticate(bearer)).resolves.toEqual({
      credentialId: credential?.id,
      publicKey,
      organizationId: organization?.id,
      livemode: true,
      organizationStatus: 'active',
      feePercent: '0.5',
      providerActivated: true,
    });
  });

  it('accepts a test credential as not live', async () => {
    const { bearer } = credentials.issue('test');

    await expect(sut.authenticate(bearer)).resolves.toMatchObject({ livemode: false });
  });

  it('answers repeated requests from its cache', async () => {
    const { bearer } = credentials.issue('live');

    await sut.authenticate(bearer);
    await sut.authenticate(bearer);

    expect(credentials.lookups).toBe(1);
  });

  it('reads a credential in use again in the background once it is 1 s old', async () => {
    const clock = advancingClock();
    const { publicKey, bearer } = credentials.issue('live');
    await sut.authenticate(bearer);

    await clock.advance(1100);
    // Answered from the cache at once; the read happens behind it.
    await expect(sut.authenticate(bearer)).resolves.toMatchObject({ publicKey });
    await clock.advance(0);
    expect(credentials.lookups).toBe(2);

    // A revocation the refresh reads is refused from then on, before the 2 s window is over.
    credentials.revoke(publicKey);
    await clock.advance(1100);
    await expect(sut.authenticate(bearer)).resolves.toMatchObject({ publicKey });
    await clock.advance(0);
    await expect(refusal(sut.authenticate(bearer))).resolves.toMatchObject({
      code: ErrorCode.Unauthenticated,
    });
  });

  it('refuses a wrong secret with the same 401 as an unknown key', async () => {
    const { publicKey } = credentials.issue('live');

    const wrongSecret = await refusal(sut.authenticate(`Bearer ${publicKey}:${newSecret('live')}`));
    const unknownKey = await refusal(
      sut.authenticate(`Bearer ${newPublicKey('live')}:${newSecret('live')}`),
    );

    expect(wrongSecret).toMatchObject({ code: ErrorCode.Unauthenticated, status: 401 });
    expect(unknownKey).toMatchObject({ code: ErrorCode.Unauthenticated, status: 401 });
    expect(wrongSecret.message).toBe(unknownKey.message);
  });

  it('refuses a wrong secret for a key it has cached', async () => {
    const { publicKey, bearer } = credentials.issue('live');
    await sut.authenticate(bearer);

    const error = await refusal(sut.authenticate(`Bearer ${publicKey}:${newSecret('live')}`));

    expect(error.code).toBe(ErrorCode.Unauthenticated);
  });

  it('does not ask the database again for a key that matched nothing', async () => {
    const bearer = `Bearer ${newPublicKey('live')}:${newSecret('live')}`;

    await refusal(sut.authenticate(bearer));
    await refusal(sut.authenticate(bearer));

    expect(credentials.lookups).toBe(1);
  });

  it('refuses a revoked credential', async () => {
    const { publicKey, bearer } = credentials.issue('live');
    credentials.revoke(publicKey);

    const error = await refusal(sut.authenticate(bearer));

    expect(error).toMatchObject({ code: ErrorCode.Unauthenticated, status: 401 });
  });

  it('refuses a rolled credential from the moment it expires, though it is cached', async () => {
    const { publicKey, bearer } = credentials.issue('live');
    const expiry = new Date(Date.now() + 60_000);
    credentials.expire(publicKey, expiry);
    await expect(sut.authenticate(bearer)).resolves.toMatchObject({ publicKey });

    jest.spyOn(Date, 'now').mockReturnValue(expiry.getTime());

    await expect(refusal(sut.authenticate(bearer))).resolves.toMatchObject({
      code: ErrorCode.Unauthenticated,
    });
    expect(credentials.lookups).toBe(1);
  });

  it('writes when a credential was last used at most once a minute', async () => {
    const first = credentials.issue('live');
    const second = credentials.issue('test');

    await sut.authenticate(first.bearer);
    await sut.authenticate(first.bearer);
    await sut.authenticate(second.bearer);
    await refusal(sut.authenticate(`Bearer ${first.publicKey}:${newSecret('live')}`));

    expect(credentials.usesNoted).toEqual([
      credentials.rows.get(first.publicKey)?.credential.id,
      credentials.rows.get(second.publicKey)?.credential.id,
    ]);
  });

  describe('a credential revoked while cached', () => {
    it('is refused at once by every replica that hears the revocation', async () => {
      const other = await replica();
      const { publicKey, bearer } = credentials.issue('live');
      await sut.authenticate(bearer);
      await other.authenticate(bearer);

      credentials.revoke(publicKey);
      await sut.announceRevocation(publicKey);

      await expect(refusal(sut.authenticate(bearer))).resolves.toMatchObject({
        code: ErrorCode.Unauthenticated,
      });
      await expect(refusal(other.authenticate(bearer))).resolves.toMatchObject({
        code: ErrorCode.Unauthenticated,
      });
    });

    it('is refused once its cache window is over when the revocation cannot be heard', async () => {
      const clock = advancingClock();
      const deaf = new NoFanOutStore();
      const isolated = await replica(deaf);
      const { publicKey, bearer } = credentials.issue('live');
      await isolated.authenticate(bearer);
      credentials.revoke(publicKey);
      await sut.announceRevocation(publicKey);

      // Within the 2 s window the cached credential still answers (docs/decisions.md, "Credential
      // cache")…
      await clock.advance(1900);
      await expect(isolated.authenticate(bearer)).resolves.toMatchObject({ publicKey });

      // …and past it the revocation holds, though nothing was heard.
      await clock.advance(200);
      await expect(refusal(isolated.authenticate(bearer))).resolves.toMatchObject({
        code: ErrorCode.Unauthenticated,
      });
      await deaf.close();
    });

    it('is still revoked on its own replica when the fan-out fails', async () => {
      const deaf = new NoFanOutStore();
      const own = await replica(deaf);
      const { publicKey, bearer } = credentials.issue('live');
      await own.authenticate(bearer);
      credentials.revoke(publicKey);

      await own.announceRevocation(publicKey);

      await expect(refusal(own.authenticate(bearer))).resolves.toMatchObject({
        code: ErrorCode.Unauthenticated,
      });
      await deaf.close();
    });
  });

  describe('malformed bearers', () => {
    const live = `pk_live_${'a'.repeat(32)}`;
    const secret = `sk_live_${'b'.repeat(48)}`;

    it.each([
      ['no header', undefined],
      ['an empty header', ''],
      ['another scheme', `Basic ${live}:${secret}`],
      ['no scheme', `${live}:${secret}`],
      ['no secret', `Bearer ${live}`],
      ['an empty secret', `Bearer ${live}:`],
      ['no public key', `Bearer :${secret}`],
      ['a public key in capitals', `Bearer ${live.toUpperCase()}:${secret}`],
      ['a short secret', `Bearer ${live}:${secret.slice(0, -1)}`],
      ['a secret with a trailing space', `Bearer ${live}:${secret} `],
      ['two tokens', `Bearer ${live}:${secret} ${live}:${secret}`],
    ])('refuses %s without a lookup', async (_case, header) => {
      const error = await refusal(sut.authenticate(header));

      expect(error).toMatchObject({ code: ErrorCode.Unauthenticated, status: 401 });
      expect(credentials.lookups).toBe(0);
    });
  });

  describe('modes', () => {
    it('refuses a live key with a test secret and a test key with a live secret', async () => {
      const live = credentials.issue('live');
      const test = credentials.issue('test');

      for (const header of [
        `Bearer ${live.publicKey}:${live.secret.replace('sk_live_', 'sk_test_')}`,
        `Bearer ${test.publicKey}:${test.secret.replace('sk_test_', 'sk_live_')}`,
        `Bearer ${live.publicKey}:${test.secret}`,
      ]) {
        await expect(refusal(sut.authenticate(header))).resolves.toMatchObject({
          code: ErrorCode.Unauthenticated,
        });
      }
      expect(credentials.lookups).toBe(0);
    });
  });
});
