import { createHash, randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { PerProcessFallback } from '#app/rate-limit';
import { KEY_VALUE_STORE, type KeyValueStore, type WindowHit } from '#app/redis';

export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
export const SIGN_IN_FAILURES_PER_ACCOUNT = 5;
export const SIGN_IN_FAILURES_PER_IP = 30;

function accountKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32);
}

/** What came of one attempt: refused unchecked, or checked (`result` null: it failed). */
export type SignInAttempt<T> =
  { throttled: true; retryAfterMs: number } | { throttled: false; result: T | null };

/**
 * Sign-in attempts (passwords, second factors, re-authentication), counted per account and per
 * address in the shared store, so every replica sees them: 5 failures for an account or 30 from
 * an address within 15 minutes, and further attempts are refused unchecked until the oldest of
 * them is 15 minutes old. An attempt is counted before it is checked and taken back when it
 * succeeds, so concurrent guesses never get past the limit (docs/decisions.md, "Sign-in attempts
 * counted before they are checked"). While the store is unreachable, this process counts alone.
 */
@Injectable()
export class SignInThrottle {
  private readonly store: PerProcessFallback;
  private readonly logger = new Logger(SignInThrottle.name);

  constructor(@Inject(KEY_VALUE_STORE) store: KeyValueStore) {
    this.store = new PerProcessFallback(
      store,
      this.logger,
      'sign-in limits store unavailable: enforcing per-process limits',
    );
  }

  /**
   * Counts an attempt for `email` from `ip` and, when the limits admit it, runs `check` (null:
   * the attempt failed, and stays counted). A success, or a check that throws, is not counted.
   */
  async attempt<T>(
    email: string,
    ip: string,
    check: () => Promise<T | null>,
  ): Promise<SignInAttempt<T>> {
    const id = randomUUID();
    const logs: WindowHit[] = [
      {
        key: `dashboard:signin:account:${accountKey(email)}`,
        windowMs: SIGN_IN_WINDOW_MS,
        limit: SIGN_IN_FAILURES_PER_ACCOUNT,
      },
      {
        key: `dashboard:signin:ip:${ip}`,
        windowMs: SIGN_IN_WINDOW_MS,
        limit: SIGN_IN_FAILURES_PER_IP,
      },
    ];
    const { value: admission, store } = await this.store.run((s) => s.admitAttempt(logs, id));
    if (!admission.admitted) {
      return { throttled: true, retryAfterMs: admission.retryAfterMs };
    }
    const forget = () =>
      store
        .forgetAttempt(
          logs.map((log) => log.key),
          id,
        )
        .catch((error: unknown) => {
          // The attempt counts as a failure until it leaves the window: stricter, never looser.
          this.logger.warn({ err: (error as Error).message }, 'sign-in attempt not taken back');
        });
    let result: T | null;
    try {
      result = await check();
    } catch (error: unknown) {
      await forget();
      throw error;
    }
    if (result !== null) {
      await forget();
    }
    return { throttled: false, result };
  }
}
