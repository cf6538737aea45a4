import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { modeUsableIn } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { KEY_VALUE_STORE, type KeyValueStore } from '#app/redis';
import type { WidgetCaller } from './widget-caller.js';
import { widgetKeyMode } from './widget-key.js';
import { WidgetKeysRepository, type WidgetKeyForAuthentication } from './widget-keys.repository.js';

/** Revocation reaches every replica within 5 s: cached keys live 2 s, and a revocation evicts at once. */
const CACHE_TTL_MS = 2000;
const MAX_CACHED_KEYS = 10_000;
const ORIGIN_CACHE_TTL_MS = 2000;
export const WIDGET_KEY_REVOKED_CHANNEL = 'widget-key-revoked';

function unauthenticated(): AppError {
  return new AppError(ErrorCode.Unauthenticated, 'Missing, unknown or revoked widget key.');
}

/** The mode as a value from the stored key; anything but live or test is refused (fail closed). */
function toCaller(row: WidgetKeyForAuthentication): WidgetCaller | null {
  const mode = row.mode === 'live' || row.mode === 'test' ? row.mode : null;
  if (mode === null || widgetKeyMode(row.key) !== mode) {
    return null;
  }
  return {
    widgetKeyId: row.id,
    key: row.key,
    mode,
    allowedOrigins: row.allowedOrigins,
    partner: {
      credentialId: row.id,
      publicKey: row.key,
      organizationId: row.organizationId,
      livemode: mode === 'live',
      organizationStatus: row.organizationStatus,
      feePercent: row.feePercent,
      providerActivated: row.providerActivated,
    },
  };
}

/**
 * Verifies `X-Widget-Key`. Like partner credentials: cached in process for 2 s, evicted at once
 * when any replica revokes the key (Redis fan-out), unknown keys cached as unknown so guessing
 * costs no query per request. Every failure is the same 401.
 */
@Injectable()
export class WidgetKeyAuthenticator implements OnModuleInit {
  private readonly logger = new Logger(WidgetKeyAuthenticator.name);
  private readonly cache = new LRUCache<string, WidgetCaller | false>({
    max: MAX_CACHED_KEYS,
    ttl: CACHE_TTL_MS,
  });
  private readonly origins = new LRUCache<string, boolean>({
    max: MAX_CACHED_KEYS,
    ttl: ORIGIN_CACHE_TTL_MS,
  });
  private revocations = 0;

  constructor(
    private readonly keys: WidgetKeysRepository,
    @Inject(KEY_VALUE_STORE) private readonly store: KeyValueStore,
  ) {}

  /**
   * Waits a second at most: while the store is down the subscription stays queued and is made
   * when it answers; the 2 s cache still bounds revocation meanwhile.
   */
  async onModuleInit(): Promise<void> {
    try {
      await this.store.subscribe(WIDGET_KEY_REVOKED_CHANNEL, (key) => this.evict(key));
    } catch (error: unknown) {
      this.logger.warn(
        { err: (error as Error).message },
        'widget key revocation fan-out unavailable',
      );
    }
  }

  /** The caller a header names, or 401. */
  async authenticate(header: string | string[] | undefined): Promise<WidgetCaller> {
    const caller = typeof header === 'string' ? await this.find(header) : null;
    if (!caller) {
      throw unauthenticated();
    }
    return caller;
  }

  /** The caller a key names, or null (the hosted page answers 404 for it). */
  async find(key: string): Promise<WidgetCaller | null> {
    if (widgetKeyMode(key) === null) {
      return null;
    }
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      return cached || null;
    }
    const revocations = this.revocations;
    const row = await this.keys.findActiveForAuthentication(key);
    const caller = row ? toCaller(row) : null;
    if (revocations === this.revocations) {
      this.cache.set(key, caller ?? false);
    }
    return caller;
  }

  /**
   * The caller a key names while its organization may use a key of its mode (live: active; test:
   * also under review), else null: the hosted page of a suspended organization is the unknown
   * key's 404, as its widget API answers the organization's 403.
   */
  async findUsable(key: string): Promise<WidgetCaller | null> {
    const caller = await this.find(key);
    return caller && modeUsableIn(caller.partner.organizationStatus, caller.partner.livemode)
      ? caller
      : null;
  }

  /** Whether some unrevoked key lists `origin`: what a preflight, which carries no key, is told. */
  async isOriginListed(origin: string): Promise<boolean> {
    const cached = this.origins.get(origin);
    if (cached !== undefined) {
      return cached;
    }
    const listed = await this.keys.isOriginListed(origin);
    this.origins.set(origin, listed);
    return listed;
  }

  /** Evicts locally and tells every other replica. */
  async announceRevocation(key: string): Promise<void> {
    this.evict(key);
    try {
      await this.store.publish(WIDGET_KEY_REVOKED_CHANNEL, key);
    } catch (error: unknown) {
      this.logger.warn(
        { err: (error as Error).message },
        'widget key revocation fan-out failed; replicas expire the key within 2 s',
      );
    }
  }

  private evict(key: string): void {
    this.revocations += 1;
    this.cache.delete(key);
    this.origins.clear();
  }
}
