import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerGenerateKeyFunction,
  type ThrottlerGetTrackerFunction,
  type ThrottlerModuleOptions,
  type ThrottlerOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { rateLimited, type RateLimitPolicy } from '#app/rate-limit';
import { RequestLimits, type LimitCheck } from './request-limits.js';

/** One named throttler a route is counted against, as the module registered it. */
interface PlannedLimit {
  policy: RateLimitPolicy;
  getTracker: ThrottlerGetTrackerFunction;
  generateKey: ThrottlerGenerateKeyFunction;
}

function fixed(value: ThrottlerOptions['limit'], what: string, name: string): number {
  if (typeof value !== 'number') {
    throw new Error(`throttler ${name}: ${what} must be a number`);
  }
  return value;
}

/**
 * `@nestjs/throttler`'s guard, counting every limit the route declares in one store round trip,
 * with the spec's headers and error envelope instead of the library's `X-RateLimit-*` and
 * exception. Which of the module's named throttlers apply to a route (their `skipIf`), with what
 * limit, window, tracker and key, is fixed when the app starts: it is resolved on a route's first
 * request and kept, so a request only computes its trackers and counts.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  private readonly plans = new WeakMap<object, PlannedLimit[]>();

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly limits: RequestLimits,
  ) {
    super(options, storage, reflector);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const checks: LimitCheck[] = [];
    for (const { policy, getTracker, generateKey } of this.plan(context)) {
      const pending = getTracker(req, context);
      const tracker = typeof pending === 'string' ? pending : await pending;
      checks.push({ policy, key: generateKey(context, tracker, policy.name) });
    }
    const nearest = await this.limits.count(http.getResponse<Response>(), checks);
    if (nearest?.exceeded) {
      throw rateLimited(nearest);
    }
    return true;
  }

  private plan(context: ExecutionContext): PlannedLimit[] {
    const handler = context.getHandler();
    let plan = this.plans.get(handler);
    if (plan === undefined) {
      plan = this.throttlers
        .filter((throttler) => !(throttler.skipIf ?? this.commonOptions.skipIf)?.(context))
        .map((throttler) => {
          const name = throttler.name ?? 'default';
          const getTracker = throttler.getTracker ?? this.commonOptions.getTracker;
          const generateKey = throttler.generateKey ?? this.commonOptions.generateKey;
          if (!getTracker || !generateKey) {
            throw new Error(`throttler ${name} needs a tracker and a key generator`);
          }
          return {
            policy: {
              name,
              limit: fixed(throttler.limit, 'limit', name),
              windowSeconds: fixed(throttler.ttl, 'ttl', name) / 1000,
            },
            getTracker,
            generateKey,
          };
        });
      this.plans.set(handler, plan);
    }
    return plan;
  }
}
