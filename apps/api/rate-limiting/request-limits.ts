import type { Response } from 'express';
import {
  nearestExhaustion,
  rateLimitHeaders,
  type LimitCheck,
  type RateLimiter,
  type RateLimitState,
} from '#app/ratelimit';

interface LimitsLocals {
  /** Checks planned but not counted yet: the partner guard counts them with the credential's. */
  pendingLimits?: LimitCheck[];
  countedLimits?: RateLimitState[];
}

function locals(res: Response): LimitsLocals {
  return res.locals as LimitsLocals;
}

/** Defers checks so that one store round trip later counts them with the credential's. */
export function planLimits(res: Response, checks: LimitCheck[]): void {
  locals(res).pendingLimits = checks;
}

/**
 * Counts the planned checks plus `extra` in one round trip, writes the `RateLimit-*` headers of
 * the limit nearest exhaustion (among everything counted for this request) and returns it.
 */
export async function settleLimits(
  limiter: RateLimiter,
  res: Response,
  extra: LimitCheck[] = [],
): Promise<RateLimitState | null> {
  const state = locals(res);
  const checks = [...(state.pendingLimits ?? []), ...extra];
  state.pendingLimits = [];
  const counted = [...(state.countedLimits ?? []), ...(await limiter.hitMany(checks))];
  state.countedLimits = counted;
  if (counted.length === 0) {
    return null;
  }
  const nearest = nearestExhaustion(counted);
  for (const [name, value] of Object.entries(rateLimitHeaders(nearest))) {
    res.setHeader(name, value);
  }
  return nearest;
}

/** A request that failed before the partner guard still spends its IP budget and gets headers. */
export async function settlePendingLimits(limiter: RateLimiter, res: Response): Promise<void> {
  if ((locals(res).pendingLimits ?? []).length > 0 && !res.headersSent) {
    await settleLimits(limiter, res);
  }
}
