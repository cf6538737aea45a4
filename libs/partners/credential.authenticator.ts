import { timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { AppError, ErrorCode } from '#app/errors';
import { bearerToken } from '#app/input';
import { KEY_VALUE_STORE, type KeyValueStore } from '#app/redis';
import { CredentialCipher, PUBLIC_KEY_PATTERN, SECRET_PATTERN } from './credential.cipher.js';
import { CredentialsRepository } from './credentials.repository.js';
import type { AuthenticatedPartner } from './partner.js';

/**
 * Revocation must reach every replica within 5 s (docs/decisions.md, "Credential cache"); the cache
 * lives shorter.
 */
const CACHE_TTL_MS = 2000;
export const CREDENTIAL_REVOKED_CHANNEL = 'credential-revoked';
/**
 * A cached credential at least this old is read again in the background while it keeps serving,
 * so a credential in use is never waited for; none is served older than `CACHE_TTL_MS`.
 */
const REFRESH_AFTER_MS = 1000;
/** Per cache: whatever a flood of distinct keys brings, memory stays bounded. */
const MAX_CACHED_KEYS = 10_000;
/** "Last used" is shown to the minute, so it is written at most once a minute per credential. */
const LAST_USED_EVERY_MS = 60_000;

interface CacheEntry {
  partner: AuthenticatedPartner;
  digest: string;
  /** Epoch ms after which a rolled credential authenticates nothing, even from the cache. */
  expiresAt: number | null;
  loadedAt: number;
  /**
   * The secret that last matched `digest`, for the entry's lifetime (2 s at most): a request that
   * presents it again is compared with it in constant time instead of running the HMAC again.
   */
  verified?: Buffer;
}

/** A digest nothing matches, so unknown keys take the same constant-time comparison path. */
const UNKNOWN_DIGEST = '0'.repeat(64);

function unauthenticated(): AppError {
  return new AppError(ErrorCode.Unauthenticated, 'Missing or invalid credentials.');
}

/**
 * Verifies `Authorization: Bearer <public_key>:<secret>`. Verified credentials are cached in
 * process for 2 s (read again in the background once 1 s old, while in use) and evicted at once
 * when any replica revokes one; every failure is the same 401.
 */
@Injectable()
export class CredentialAuthenticator implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(CredentialAuthenticator.name);
  private readonly cache = new LRUCache<string, CacheEntry>({
    max: MAX_CACHED_KEYS,
    ttl: CACHE_TTL_MS,
  });
  /** Keys that matched nothing, so guessing keys cannot cost a database query per request. */
  private readonly unknown = new LRUCache<string, true>({
    max: MAX_CACHED_KEYS,
    ttl: CACHE_TTL_MS,
  });
  private readonly refreshing = new Set<string>();
  /** Credentials whose use was written in the last minute. */
  private readonly usedRecently = new LRUCache<string, true>({
    max: MAX_CACHED_KEYS,
    ttl: LAST_USED_EVERY_MS,
  });
  private readonly usageWrites = new Set<Promise<void>>();
  /** Counts revocations heard, so a read that overlapped one is not cached. */
  private revocations = 0;

  constructor(
    private readonly credentials: CredentialsRepository,
    private readonly cipher: CredentialCipher,
    @Inject(KEY_VALUE_STORE) private readonly store: KeyValueStore,
  ) {}

  /**
   * Waits a second at most: while the store is down the subscription stays queued and is made
   * when it answers.
   */
  async onModuleInit(): Promise<void> {
    try {
      await this.store.subscribe(CREDENTIAL_REVOKED_CHANNEL, (publicKey) => this.evict(publicKey));
    } catch (error: unknown) {
      // The 2 s cache lifetime still bounds revocation; fan-out only makes it immediate.
      this.logger.warn({ err: (error as Error).message }, 'revocation fan-out unavailable');
    }
  }

  /** Lets the last "last used" writes finish before the database closes. */
  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.usageWrites);
  }

  async authenticate(authorization: string | undefined): Promise<AuthenticatedPartner> {
    const parsed = parseBearer(authorization);
    if (!parsed) {
      throw unauthenticated();
    }
    const { publicKey, secret } = parsed;
    const found = await this.lookup(publicKey);
    const entry =
      found && (found.expiresAt === null || found.expiresAt > Date.now()) ? found : null;
    if (entry?.verified && sameSecret(secret, entry.verified)) {
      this.noteUse(entry.partner);
      return entry.partner;
    }
    if (!this.cipher.matches(secret, entry?.digest ?? UNKNOWN_DIGEST) || !entry) {
      throw unauthenticated();
    }
    entry.verified = Buffer.from(secret, 'utf8');
    this.noteUse(entry.partner);
    return entry.partner;
  }

  /** Evicts locally and tells every other replica. */
  async announceRevocation(publicKey: string): Promise<void> {
    this.evict(publicKey);
    try {
      await this.store.publish(CREDENTIAL_REVOKED_CHANNEL, publicKey);
    } catch (error: unknown) {
      // The revocation is stored; other replicas still drop the key within the cache lifetime.
      this.logger.warn(
        { publicKey, err: (error as Error).message },
        'revocation fan-out failed; replicas expire the key within 2 s',
      );
    }
  }

  /**
   * Writes "last used" in the background, at most once a minute per credential and process:
   * authentication never waits for it, and a failed write only leaves the time older.
   */
  private noteUse(partner: AuthenticatedPartner): void {
    if (this.usedRecently.has(partner.credentialId)) {
      return;
    }
    this.usedRecently.set(partner.credentialId, true);
    const write = this.credentials
      .noteUsed(partner.credentialId)
      .catch((error: unknown) => {
        this.logger.warn({ err: (error as Error).message }, 'last-used write failed');
      })
      .finally(() => this.usageWrites.delete(write));
    this.usageWrites.add(write);
  }

  private evict(publicKey: string): void {
    this.revocations += 1;
    this.cache.delete(publicKey);
  }

  private async lookup(publicKey: string): Promise<CacheEntry | null> {
    const cached = this.cache.get(publicKey);
    if (cached) {
      if (performance.now() - cached.loadedAt >= REFRESH_AFTER_MS) {
        this.refreshInBackground(publicKey);
      }
      return cached;
    }
    if (this.unknown.has(publicKey)) {
      return null;
    }
    return this.load(publicKey);
  }

  /** Reads the credential and caches what it found, unless a revocation was heard meanwhile. */
  private async load(publicKey: string): Promise<CacheEntry | null> {
    const revocations = this.revocations;
    const found = await this.credentials.findActiveForAuthentication(publicKey);
    const cacheable = revocations === this.revocations;
    if (!found) {
      this.cache.delete(publicKey);
      this.unknown.set(publicKey, true);
      return null;
    }
    const previous = this.cache.get(publicKey);
    const entry: CacheEntry = {
      partner: found.partner,
      digest: found.secretDigest,
      expiresAt: found.expiresAt?.getTime() ?? null,
      loadedAt: performance.now(),
      verified: previous?.digest === found.secretDigest ? previous.verified : undefined,
    };
    if (cacheable) {
      this.cache.set(publicKey, entry);
    }
    return entry;
  }

  private refreshInBackground(publicKey: string): void {
    if (this.refreshing.has(publicKey)) {
      return;
    }
    this.refreshing.add(publicKey);
    this.load(publicKey)
      .catch((error: unknown) => {
        // The entry still expires on time; the next request after that reads it in the foreground.
        this.logger.warn({ err: (error as Error).message }, 'credential refresh failed');
      })
      .finally(() => this.refreshing.delete(publicKey));
  }
}

/** Constant time for a secret of the verified one's length (every well-formed secret's). */
function sameSecret(secret: string, verified: Buffer): boolean {
  const presented = Buffer.from(secret, 'utf8');
  return presented.length === verified.length && timingSafeEqual(presented, verified);
}

/** `<public_key>:<secret>` of one mode: a live key with a test secret is no credential at all. */
export function parseBearer(
  header: string | undefined,
): { publicKey: string; secret: string } | null {
  const match = /^([^:]+):(.+)$/.exec(bearerToken(header) ?? '');
  const keyMode = match ? PUBLIC_KEY_PATTERN.exec(match[1])?.[1] : undefined;
  const secretMode = match ? SECRET_PATTERN.exec(match[2])?.[1] : undefined;
  if (!match || keyMode === undefined || keyMode !== secretMode) {
    return null;
  }
  return { publicKey: match[1], secret: match[2] };
}
