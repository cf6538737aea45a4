import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { POLICIES, rateLimited, type LimitCheck, type RateLimiter } from '#app/ratelimit';
import { planLimits, settleLimits } from './request-limits.js';

/** Top-level paths that share one per-IP budget each (spec, Limits). */
const METERED_PREFIXES = ['/v1', '/partner', '/admin', '/widget-api'];
const PUBLIC_QUOTE_PATH = '/v1/public/quote';
/** Routes behind the partner guard, which counts the IP with the credential in one round trip. */
const PARTNER_PATHS = ['/v1/currencies', '/v1/pairs', '/v1/addresses', '/v1/quotes', '/v1/swaps'];

function under(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * Per source IP, before authentication: 120/s per top-level path, plus 60/min on the public
 * quote. `/health`, `/ready` and anything outside the metered paths are not counted.
 */
export function ipRateLimitMiddleware(limiter: RateLimiter): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const prefix = METERED_PREFIXES.find((p) => under(req.path, p));
    if (!prefix || req.method === 'OPTIONS') {
      next();
      return;
    }
    const ip = req.ip ?? 'unknown';
    const checks: LimitCheck[] = [{ policy: POLICIES.perIp, subject: `${prefix}:${ip}` }];
    if (req.path === PUBLIC_QUOTE_PATH) {
      checks.push({ policy: POLICIES.publicQuote, subject: ip });
    }
    planLimits(res, checks);
    if (PARTNER_PATHS.some((p) => under(req.path, p))) {
      next();
      return;
    }
    settleLimits(limiter, res).then(
      (nearest) => next(nearest?.exceeded ? rateLimited(nearest) : undefined),
      (error: unknown) => next(error),
    );
  };
}
