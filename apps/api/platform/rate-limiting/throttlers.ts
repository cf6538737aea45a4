import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  normalizeIp,
  type ThrottlerGetTrackerFunction,
  type ThrottlerModuleOptions,
  type ThrottlerOptions,
} from '@nestjs/throttler';
import type { Request } from 'express';
import { POLICIES, type RateLimitPolicy, type SharedThrottlerStorage } from '#app/rate-limit';
import type { PartnerRequest } from '../auth/partner-auth.guard.js';
import { RATE_LIMITS, type LimitName } from './rate-limits.decorator.js';

/** The spec's per-IP buckets: one per top-level path (Limits table), the reference page's too. */
const PER_IP_TOP_LEVEL_PATHS = new Set(['/v1', '/partner', '/admin', '/widget-api', '/docs']);

const reflector = new Reflector();

function declares(context: ExecutionContext, name: LimitName): boolean {
  const names = reflector.getAllAndOverride<LimitName[] | undefined>(RATE_LIMITS, [
    context.getHandler(),
    context.getClass(),
  ]);
  return names?.includes(name) ?? false;
}

/** `/v1` of `/v1/swaps/:id`. */
export function topLevelPath(path: string): string {
  const end = path.indexOf('/', 1);
  return end === -1 ? path : path.slice(0, end);
}

function clientIp(req: Request): string {
  return normalizeIp(req.ip ?? 'unknown');
}

/** The per-IP bucket of a request: its top-level path and source address. */
export function perIpTracker(path: string, req: Request): string | null {
  const prefix = topLevelPath(path);
  return PER_IP_TOP_LEVEL_PATHS.has(prefix) ? `${prefix}:${clientIp(req)}` : null;
}

/** The matched route's template (`/v1/swaps/:id`), not the raw path. */
function routePath(req: Request): string {
  const route = (req.route as { path?: unknown } | undefined)?.path;
  return typeof route === 'string' ? `${req.baseUrl}${route}` : req.path;
}

const trackers: Record<LimitName, ThrottlerGetTrackerFunction> = {
  ip: (req) => {
    const request = req as Request;
    const tracker = perIpTracker(routePath(request), request);
    if (tracker === null) {
      throw new Error(
        `route ${routePath(request)} declares a per-IP limit outside the metered paths`,
      );
    }
    return tracker;
  },
  credential: (req) => {
    const partner = (req as PartnerRequest).partner;
    if (!partner) {
      throw new Error('the credential limit needs PartnerAuthGuard before RateLimitGuard');
    }
    return partner.credentialId;
  },
  'public-quote': (req) => clientIp(req as Request),
  'widget-creation': (req) => {
    const partner = (req as PartnerRequest).partner;
    if (!partner) {
      throw new Error('the widget creation limit needs WidgetKeyGuard before RateLimitGuard');
    }
    return `${partner.credentialId}:${clientIp(req as Request)}`;
  },
};

function throttler(policy: RateLimitPolicy & { name: LimitName }): ThrottlerOptions {
  return {
    name: policy.name,
    limit: policy.limit,
    ttl: policy.windowSeconds * 1000,
    getTracker: trackers[policy.name],
    skipIf: (context) => !declares(context, policy.name),
  };
}

/** One named throttler per limit of the spec; a route opts in with `@RateLimits(...)`. */
export function throttlerOptions(storage: SharedThrottlerStorage): ThrottlerModuleOptions {
  return {
    throttlers: [
      throttler(POLICIES.perIp),
      throttler(POLICIES.perCredential),
      throttler(POLICIES.publicQuote),
      throttler(POLICIES.widgetCreation),
    ],
    // A bucket is the limit and its subject, shared by every route that declares the limit.
    generateKey: (_context, tracker, name) => `${name}:${tracker}`,
    setHeaders: false,
    storage,
  };
}
