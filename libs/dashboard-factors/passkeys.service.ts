import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { isPlainText } from '#app/input';
import {
  DashboardPasskeyEntity,
  DashboardWebAuthnChallengeEntity,
  type WebAuthnPurpose,
} from '#app/persistence';
import { FACTORS_CLOCK, type FactorsClock } from './factor.keys.js';
import { PasskeysRepository } from './passkeys.repository.js';
import type { RelyingParty } from './relying-party.js';
import { WebAuthnChallengesRepository } from './webauthn-challenges.repository.js';
import { authenticationResponseOf, registrationResponseOf } from './webauthn-response.js';

/** How long a ceremony's challenge stays valid on the server. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** How long the browser's prompt waits for the person (WebAuthn's own recommended range). */
const PROMPT_TIMEOUT_MS = 120_000;
/** Enough for a phone, a laptop and spare security keys; bounds a user's rows. */
export const MAX_PASSKEYS_PER_USER = 10;
export const MAX_PASSKEY_NAME_LENGTH = 64;
const DEFAULT_PASSKEY_NAME = 'Passkey';
/**
 * Ed25519, ES256 and RS256: what authenticators ship. The library's default list starts with
 * ML-DSA, whose verification Node offers only as experimental and whose signatures run to
 * kilobytes; an authenticator that supports it picks it first, so it is left out.
 */
const ALGORITHMS = [-8, -7, -257];

/** A passkey as the Security page lists it (never its key). */
export interface PasskeyView {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  /** Synced across the person's devices (a multi-device passkey). */
  synced: boolean;
}

/** The user a passkey is registered for. */
export interface PasskeyUser {
  id: string;
  /** Shown in the browser's passkey prompt and picker. */
  email: string;
}

/** A ceremony bound to one user: a second factor after the password, or a re-authentication. */
export type UserCeremony = Extract<WebAuthnPurpose, 'second_factor' | 'reauth'>;

/**
 * Passkeys (WebAuthn) of dashboard users, through `@simplewebauthn/server`. Every ceremony's
 * challenge is kept on the server, bound to the browser (`binding`: an opaque value the caller
 * ties to the browser, such as its session id) and to a purpose, used once, valid
 * `CHALLENGE_TTL_MS`. User verification is required throughout: a passkey signs in alone, as
 * two factors in one (something held, and a PIN or biometric).
 */
@Injectable()
export class PasskeysService {
  private readonly logger = new Logger(PasskeysService.name);

  constructor(
    private readonly passkeys: PasskeysRepository,
    private readonly challenges: WebAuthnChallengesRepository,
    @Inject(FACTORS_CLOCK) private readonly clock: FactorsClock,
  ) {}

  async list(userId: string): Promise<PasskeyView[]> {
    return (await this.passkeys.listForUser(userId)).map(viewOf);
  }

  async count(userId: string): Promise<number> {
    return this.passkeys.countForUser(userId);
  }

  /** Options for `navigator.credentials.create`; null once the user has the most passkeys. */
  async registrationOptions(
    user: PasskeyUser,
    rp: RelyingParty,
    binding: string,
  ): Promise<PublicKeyCredentialCreationOptionsJSON | null> {
    const existing = await this.passkeys.listForUser(user.id);
    if (existing.length >= MAX_PASSKEYS_PER_USER) {
      return null;
    }
    const options = await generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: user.email,
      userDisplayName: user.email,
      userID: userHandleOf(user.id),
      timeout: PROMPT_TIMEOUT_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      supportedAlgorithmIDs: ALGORITHMS,
    });
    await this.storeChallenge(binding, 'register', user.id, options.challenge);
    return options;
  }

  /**
   * Verifies the browser's answer to `registrationOptions` and stores the passkey under `name`
   * (blank: "Passkey"); null when the answer does not verify, the challenge is gone, the name is
   * not plain text, or the credential is registered already.
   */
  async register(
    user: PasskeyUser,
    rp: RelyingParty,
    binding: string,
    response: unknown,
    name: string,
  ): Promise<PasskeyView | null> {
    const passkeyName = passkeyNameOf(name);
    const challenge = await this.takeChallenge(binding, 'register');
    const parsed = registrationResponseOf(response);
    if (passkeyName === null || challenge?.userId !== user.id || parsed === null) {
      return null;
    }
    if ((await this.passkeys.countForUser(user.id)) >= MAX_PASSKEYS_PER_USER) {
      return null;
    }
    const verified = await verifyRegistrationResponse({
      response: parsed,
      expectedChallenge: challenge.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHMS,
    }).catch((error: unknown) => this.refused('registration', error));
    if (!verified?.verified) {
      return null;
    }
    const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
    const passkey = Object.assign(new DashboardPasskeyEntity(), {
      id: credential.id,
      userId: user.id,
      publicKey: Buffer.from(credential.publicKey),
      counter: credential.counter,
      transports: parsed.response.transports ?? [],
      name: passkeyName,
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
      createdAt: new Date(this.clock()),
      lastUsedAt: null,
    });
    if (!(await this.passkeys.insert(passkey))) {
      return null;
    }
    this.logger.log({ userId: user.id }, 'Passkey registered');
    return viewOf(passkey);
  }

  /** Options for a passkey sign-in: no user yet, the browser offers the site's passkeys. */
  async signInOptions(
    rp: RelyingParty,
    binding: string,
  ): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const options = await generateAuthenticationOptions({
      rpID: rp.id,
      timeout: PROMPT_TIMEOUT_MS,
      userVerification: 'required',
    });
    await this.storeChallenge(binding, 'sign_in', null, options.challenge);
    return options;
  }

  /** The user a passkey sign-in proves, or null. */
  async signIn(rp: RelyingParty, binding: string, response: unknown): Promise<string | null> {
    const challenge = await this.takeChallenge(binding, 'sign_in');
    if (challenge === null) {
      return null;
    }
    const passkey = await this.verifyAssertion(rp, challenge.challenge, response);
    return passkey?.userId ?? null;
  }

  /** Options for a ceremony of `userId`'s own passkeys; null when the user has none. */
  async userOptions(
    userId: string,
    rp: RelyingParty,
    binding: string,
    purpose: UserCeremony,
  ): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
    const passkeys = await this.passkeys.listForUser(userId);
    if (passkeys.length === 0) {
      return null;
    }
    const options = await generateAuthenticationOptions({
      rpID: rp.id,
      timeout: PROMPT_TIMEOUT_MS,
      userVerification: 'required',
      allowCredentials: passkeys.map((p) => ({ id: p.id, transports: p.transports })),
    });
    await this.storeChallenge(binding, purpose, userId, options.challenge);
    return options;
  }

  /** True when the answer proves one of `userId`'s own passkeys for this ceremony. */
  async verifyUser(
    userId: string,
    rp: RelyingParty,
    binding: string,
    purpose: UserCeremony,
    response: unknown,
  ): Promise<boolean> {
    const challenge = await this.takeChallenge(binding, purpose);
    if (challenge?.userId !== userId) {
      return false;
    }
    const passkey = await this.verifyAssertion(rp, challenge.challenge, response);
    return passkey?.userId === userId;
  }

  /** False when the name is not plain text or the user has no such passkey. */
  async rename(userId: string, id: string, name: string): Promise<boolean> {
    const passkeyName = passkeyNameOf(name);
    return passkeyName !== null && this.passkeys.rename(userId, id, passkeyName);
  }

  async remove(userId: string, id: string): Promise<boolean> {
    const removed = await this.passkeys.delete(userId, id);
    if (removed) {
      this.logger.log({ userId }, 'Passkey removed');
    }
    return removed;
  }

  /** Verifies an assertion against the stored passkey it names and records its use. */
  private async verifyAssertion(
    rp: RelyingParty,
    expectedChallenge: string,
    response: unknown,
  ): Promise<DashboardPasskeyEntity | null> {
    const parsed = authenticationResponseOf(response);
    if (parsed === null) {
      return null;
    }
    const passkey = await this.passkeys.findById(parsed.id);
    if (passkey === null) {
      return null;
    }
    const handle = parsed.response.userHandle;
    if (
      handle !== undefined &&
      handle !== Buffer.from(userHandleOf(passkey.userId)).toString('base64url')
    ) {
      return null;
    }
    const verified = await verifyAuthenticationResponse({
      response: parsed,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: {
        id: passkey.id,
        publicKey: new Uint8Array(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports,
      },
    }).catch((error: unknown) => this.refused('authentication', error));
    if (!verified?.verified) {
      return null;
    }
    await this.passkeys.recordUse(
      passkey.id,
      verified.authenticationInfo.newCounter,
      new Date(this.clock()),
    );
    return passkey;
  }

  private async storeChallenge(
    binding: string,
    purpose: WebAuthnPurpose,
    userId: string | null,
    challenge: string,
  ): Promise<void> {
    const now = this.clock();
    await this.challenges.put(
      Object.assign(new DashboardWebAuthnChallengeEntity(), {
        binding: bindingDigest(binding),
        purpose,
        challenge,
        userId,
        expiresAt: new Date(now + CHALLENGE_TTL_MS),
      }),
      new Date(now),
    );
  }

  private takeChallenge(
    binding: string,
    purpose: WebAuthnPurpose,
  ): Promise<DashboardWebAuthnChallengeEntity | null> {
    return this.challenges.take(bindingDigest(binding), purpose, new Date(this.clock()));
  }

  /** The library throws on any malformed or mismatched answer: that is a refusal, not a fault. */
  private refused(ceremony: string, error: unknown): null {
    this.logger.log(
      { ceremony, reason: error instanceof Error ? error.message : 'unknown' },
      'WebAuthn answer refused',
    );
    return null;
  }
}

/** The WebAuthn user handle: the user's id as 16 bytes, no email or other personal data. */
function userHandleOf(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId.replace(/-/g, ''), 'hex'));
}

function bindingDigest(binding: string): string {
  return createHash('sha256').update(binding, 'utf8').digest('hex');
}

/** The trimmed name, "Passkey" when blank; null when too long or not plain text. */
export function passkeyNameOf(input: string): string | null {
  const name = input.trim();
  if ([...name].length > MAX_PASSKEY_NAME_LENGTH || !isPlainText(name)) {
    return null;
  }
  return name === '' ? DEFAULT_PASSKEY_NAME : name;
}

function viewOf(passkey: DashboardPasskeyEntity): PasskeyView {
  return {
    id: passkey.id,
    name: passkey.name,
    createdAt: passkey.createdAt,
    lastUsedAt: passkey.lastUsedAt,
    synced: passkey.backedUp,
  };
}
