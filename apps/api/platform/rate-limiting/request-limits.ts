import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import type { AppError } from '#app/errors';
import {
  nearestExhaustion,
  POLICIES,
  rateLimited,
  rateLimitHeaders,
  type RateLimitPolicy,
  type RateLimitState,
  type SharedThrottlerStorage,
} from '#app/rate-limit';
import { perIpTracker } from './throttlers.js';

/** One limit to count a request against, in the bucket of its subject. */
export interface LimitCheck {
  policy: RateLimitPolicy;
  key: string;
}

/**
 * Counts a request's limits in one store round trip and writes the `RateLimit-*` headers of the
 * limit nearest exhaustion (docs/decisions.md, "Rate limits on @nestjs/throttler"). Each request is
 * counted at most once.
 */
@Injectable()
export class RequestLimits {
  private readonly counted = new WeakSet<Response>();

  constructor(@InjectThrottlerStorage() private readonly storage: SharedThrottlerStorage) {}

  /** Counts `checks` and answers the limit that describes the response (null: none). */
  async count(res: Response, checks: readonly LimitCheck[]): Promise<RateLimitState | null> {
    this.counted.add(res);
    if (checks.length === 0) {
      return null;
    }
    const records = await this.storage.incrementMany(
      checks.map(({ policy, key }) => ({
        key,
        ttlMs: policy.windowSeconds * 1000,
        limit: policy.limit,
      })),
    );
    const nearest = nearestExhaustion(
      checks.map(({ policy }, i) => ({
        policy,
        remaining: Math.max(0, policy.limit - records[i].totalHits),
        resetMs: records[i].resetMs,
        exceeded: records[i].isBlocked,
      })),
    );
    for (const [name, value] of Object.entries(rateLimitHeaders(nearest))) {
      res.setHeader(name, value);
    }
    return nearest;
  }

  /**
   * A request refused or answered before its route counted it (no such route, an unreadable
   * body, failed authentication, a widget API preflight) still spends its IP's budget; past the
   * limit it is answered 429 instead.
   */
  async countRejected(req: Request, res: Response): Promise<AppError | null> {
    const tracker = this.counted.has(res) || res.headersSent ? null : perIpTracker(req.path, req);
    if (tracker === null) {
      return null;
    }
    const nearest = await this.count(res, [
      { policy: POLICIES.perIp, key: `${POLICIES.perIp.name}:${tracker}` },
    ]);
    return nearest?.exceeded ? rateLimited(nearest) : null;
  }
}
