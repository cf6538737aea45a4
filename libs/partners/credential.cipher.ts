import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import type { CredentialMode } from '#app/domain';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const DIGEST_PATTERN = /^[0-9a-f]{64}$/;

function derive(master: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), purpose, 32));
}

function associatedData(binding: SealBinding): Buffer {
  return Buffer.from(`${binding.purpose}:${binding.rowId}`, 'utf8');
}

function open(key: Buffer, raw: Buffer, aad: Buffer | null): string {
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  if (aad !== null) {
    decipher.setAAD(aad);
  }
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([
    decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)),
    decipher.final(),
  ]).toString('utf8');
}

/** What a sealed secret is: its own derived key, so one purpose's ciphertext opens no other. */
export type SealPurpose = 'credential' | 'webhook' | 'totp';

/** The row a sealed secret belongs to: bound to it as associated data. */
export interface SealBinding {
  purpose: SealPurpose;
  /** The row's immutable key: a credential's public key, a webhook endpoint's id, a user's id. */
  rowId: string;
}

/** The prefix of today's sealed secrets; a ciphertext without it is of the former scheme. */
const SEALED_PREFIX = 'v2.';

/**
 * Partner secrets at rest (docs/decisions.md, "Credentials and their secrets" and "One key per
 * purpose, each secret bound to its row"): AES-256-GCM so they can be revealed again, and an
 * HMAC digest compared in constant time to authenticate. Every key derives from one master key:
 * one per purpose (credential secrets, webhook secrets), and each ciphertext carries its row as
 * associated data, so a ciphertext copied to another row or column of another purpose does not
 * open.
 */
export class CredentialCipher {
  private readonly sealKeys: Record<SealPurpose, Buffer>;
  /** The former single key, without associated data: only to re-seal rows written with it. */
  private readonly formerKey: Buffer;
  private readonly digestKey: Buffer;

  constructor(masterKey: Buffer) {
    this.sealKeys = {
      credential: derive(masterKey, 'swap-partners/credential-secret-seal'),
      webhook: derive(masterKey, 'swap-partners/webhook-secret-seal'),
      totp: derive(masterKey, 'swap-partners/totp-secret-seal'),
    };
    this.formerKey = derive(masterKey, 'swap-partners/credential-encryption');
    this.digestKey = derive(masterKey, 'swap-partners/credential-digest');
  }

  encrypt(secret: string, binding: SealBinding): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.sealKeys[binding.purpose], iv);
    cipher.setAAD(associatedData(binding));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
  }

  /** Opens a secret sealed for `binding`; throws for any other row, purpose or tampering. */
  decrypt(sealed: string, binding: SealBinding): string {
    if (!sealed.startsWith(SEALED_PREFIX)) {
      throw new Error('sealed secret of the former scheme: re-seal it first');
    }
    return open(
      this.sealKeys[binding.purpose],
      Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64'),
      associatedData(binding),
    );
  }

  /** Whether `sealed` is of the former scheme (one key, no row bound) and needs re-sealing. */
  isFormer(sealed: string): boolean {
    return !sealed.startsWith(SEALED_PREFIX);
  }

  /** Re-seals a secret of the former scheme for its row. */
  reseal(former: string, binding: SealBinding): string {
    return this.encrypt(open(this.formerKey, Buffer.from(former, 'base64'), null), binding);
  }

  digest(secret: string): string {
    return createHmac('sha256', this.digestKey).update(secret, 'utf8').digest('hex');
  }

  /** Constant time for any input, so an unknown key and a wrong secret cost the same. */
  matches(secret: string, expectedDigest: string): boolean {
    const actual = Buffer.from(this.digest(secret), 'hex');
    const wellFormed = DIGEST_PATTERN.test(expectedDigest);
    const expected = wellFormed ? Buffer.from(expectedDigest, 'hex') : Buffer.alloc(actual.length);
    return timingSafeEqual(actual, expected) && wellFormed;
  }
}

/** What re-sealing a table's former secrets did. */
export interface ResealCount {
  resealed: number;
  /** Rows whose secret does not open with this master key: left as they are. */
  unreadable: number;
}

/** `former` re-sealed for `binding`, or null when it does not open with this master key. */
export function resealOrNull(
  cipher: CredentialCipher,
  former: string,
  binding: SealBinding,
): string | null {
  try {
    return cipher.reseal(former, binding);
  } catch {
    return null;
  }
}

/** `pk_live_`/`pk_test_` + 32 lowercase hex; the mode is the prefix's middle word. */
export const PUBLIC_KEY_PATTERN = /^pk_(live|test)_[0-9a-f]{32}$/;
/** `sk_live_`/`sk_test_` + 48 lowercase hex. */
export const SECRET_PATTERN = /^sk_(live|test)_[0-9a-f]{48}$/;

export function newPublicKey(mode: CredentialMode = 'live'): string {
  return `pk_${mode}_${randomBytes(16).toString('hex')}`;
}

export function newSecret(mode: CredentialMode = 'live'): string {
  return `sk_${mode}_${randomBytes(24).toString('hex')}`;
}
