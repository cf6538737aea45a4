import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DashboardPendingSignInEntity } from '#app/persistence';
import { FACTORS_CLOCK, type FactorsClock } from './factor.keys.js';
import { PendingSignInsRepository } from './pending-sign-ins.repository.js';

/** How long a person has, after a right password, to give the second factor. */
export const PENDING_SIGN_IN_TTL_MS = 5 * 60_000;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

function digest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * The step between a right password and the second factor. The browser holds the token (in a
 * cookie); the server keeps its digest and the user, for 5 minutes; completing it is single use.
 */
@Injectable()
export class PendingSignInsService {
  constructor(
    private readonly pending: PendingSignInsRepository,
    @Inject(FACTORS_CLOCK) private readonly clock: FactorsClock,
  ) {}

  /** Starts one for the user; answers the token to give the browser. */
  async start(userId: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = this.clock();
    await this.pending.insert(
      Object.assign(new DashboardPendingSignInEntity(), {
        tokenHash: digest(token),
        userId,
        createdAt: new Date(now),
        expiresAt: new Date(now + PENDING_SIGN_IN_TTL_MS),
      }),
    );
    return token;
  }

  /** The user the token's pending sign-in is for, while it lasts; else null. */
  async userOf(token: unknown): Promise<string | null> {
    if (typeof token !== 'string' || !TOKEN.test(token)) {
      return null;
    }
    return (await this.pending.findLive(digest(token), new Date(this.clock())))?.userId ?? null;
  }

  /** Ends the pending sign-in; true only for the first caller. */
  async complete(token: string): Promise<boolean> {
    return TOKEN.test(token) && this.pending.delete(digest(token));
  }
}
