import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { SharedThrottlerStorage } from '#app/rate-limit';
import { KEY_VALUE_STORE, type KeyValueStore } from '#app/redis';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Requests that mail someone or make an organization, limited per address asked for and per
 * client address, whether or not the address has an account (so the limit tells nothing).
 */
export const ACCOUNT_REQUEST_LIMITS = {
  signUp: { perEmail: 3, perIp: 30, windowMs: HOUR_MS },
  passwordReset: { perEmail: 5, perIp: 30, windowMs: HOUR_MS },
} as const;

export type AccountRequest = keyof typeof ACCOUNT_REQUEST_LIMITS;

function emailKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32);
}

/**
 * Counts sign-ups and password-reset requests atomically in the shared store (one script call
 * for both limits, a refused request counted in neither), falling back to this process's own
 * counters when the store fails, as the API's limiter does.
 */
@Injectable()
export class AccountRequestsLimiter {
  private readonly storage: SharedThrottlerStorage;

  constructor(@Inject(KEY_VALUE_STORE) store: KeyValueStore) {
    this.storage = new SharedThrottlerStorage(store);
  }

  /** Counts one request; answers 0 when admitted, else the milliseconds until it would be. */
  async admit(kind: AccountRequest, email: string, ip: string): Promise<number> {
    const limits = ACCOUNT_REQUEST_LIMITS[kind];
    const records = await this.storage.incrementMany([
      {
        key: `dashboard:${kind}:email:${emailKey(email)}`,
        ttlMs: limits.windowMs,
        limit: limits.perEmail,
      },
      { key: `dashboard:${kind}:ip:${ip}`, ttlMs: limits.windowMs, limit: limits.perIp },
    ]);
    const blocked = records.filter((record) => record.isBlocked);
    return blocked.length === 0 ? 0 : Math.max(1000, ...blocked.map((record) => record.resetMs));
  }
}
