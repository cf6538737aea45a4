import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The `statusToken` of a widget swap: 256 bits, HMAC-SHA256 of the swap id under a key derived
 * from `CREDENTIAL_ENCRYPTION_KEY`, so an idempotent replay answers the same token without the
 * service keeping it. Only its SHA-256 is stored, and a presented token is checked against that.
 */
export class StatusTokens {
  private readonly key: Buffer;

  constructor(masterKey: Buffer) {
    this.key = Buffer.from(
      hkdfSync('sha256', masterKey, Buffer.alloc(0), 'swap-partners/widget-status-token', 32),
    );
  }

  tokenFor(swapId: string): string {
    return createHmac('sha256', this.key).update(swapId, 'utf8').digest('base64url');
  }

  static hash(token: string): string {
    return createHash('sha256').update(token, 'utf8').digest('hex');
  }

  /** Constant time for any well-formed token; anything else never matches. */
  static matches(presented: unknown, storedHash: string | null): boolean {
    if (typeof presented !== 'string' || !TOKEN_PATTERN.test(presented) || storedHash === null) {
      return false;
    }
    const actual = Buffer.from(StatusTokens.hash(presented), 'hex');
    const expected = Buffer.from(storedHash, 'hex');
    return expected.length === actual.length && timingSafeEqual(actual, expected);
  }
}
