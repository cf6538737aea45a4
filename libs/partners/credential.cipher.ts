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

/**
 * Partner secrets at rest (docs/decisions.md, "Credentials and their secrets"): AES-256-GCM so they
 * can be revealed again, and an HMAC digest compared in constant time to authenticate. Both keys
 * derive from one master key.
 */
export class CredentialCipher {
  private readonly encryptionKey: Buffer;
  private readonly digestKey: Buffer;

  constructor(masterKey: Buffer) {
    this.encryptionKey = derive(masterKey, 'swap-partners/credential-encryption');
    this.digestKey = derive(masterKey, 'swap-partners/credential-digest');
  }

  encrypt(secret: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
  }

  decrypt(sealed: string): string {
    const raw = Buffer.from(sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([
      decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
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
