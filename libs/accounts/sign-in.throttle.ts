import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { KEY_VALUE_STORE, type KeyValueStore } from '#app/redis';

export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
export const SIGN_IN_FAILURES_PER_ACCOUNT = 5;
export const SIGN_IN_FAILURES_PER_IP = 30;

function accountKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32);
}

/**
 * Failed sign-ins, counted per account and per address in the shared store (so every replica
 * sees them): at 5 for an account or 30 from an address within 15 minutes, sign-in is refused
 * for the next 15 minutes, whatever the password.
 */
@Injectable()
export class SignInThrottle {
  constructor(@Inject(KEY_VALUE_STORE) private readonly store: KeyValueStore) {}

  /** Milliseconds until sign-in is allowed again; 0: allowed now. */
  async retryAfterMs(email: string, ip: string): Promise<number> {
    const [account, address] = await Promise.all([
      this.store.get(`dashboard:signin-block:account:${accountKey(email)}`),
      this.store.get(`dashboard:signin-block:ip:${ip}`),
    ]);
    const until = Math.max(Number(account ?? 0), Number(address ?? 0));
    return Math.max(0, until - Date.now());
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    const [account, address] = await this.store.hitMany([
      { key: `dashboard:signin-fail:account:${accountKey(email)}`, windowMs: SIGN_IN_WINDOW_MS },
      { key: `dashboard:signin-fail:ip:${ip}`, windowMs: SIGN_IN_WINDOW_MS },
    ]);
    const blocks: Promise<void>[] = [];
    if (account.count >= SIGN_IN_FAILURES_PER_ACCOUNT) {
      blocks.push(this.block(`account:${accountKey(email)}`));
    }
    if (address.count >= SIGN_IN_FAILURES_PER_IP) {
      blocks.push(this.block(`ip:${ip}`));
    }
    await Promise.all(blocks);
  }

  /** A whole window from the failure that crossed the limit: the guesser waits it out. */
  private block(subject: string): Promise<void> {
    return this.store.set(
      `dashboard:signin-block:${subject}`,
      String(Date.now() + SIGN_IN_WINDOW_MS),
      SIGN_IN_WINDOW_MS,
    );
  }
}
