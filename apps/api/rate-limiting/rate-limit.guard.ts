import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  type ThrottlerRequest,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { Response } from 'express';
import { rateLimited } from '#app/rate-limit';
import { RequestLimits, type LimitCheck } from './request-limits.js';

/**
 * `@nestjs/throttler`'s guard, counting every limit the route declares in one store round trip:
 * the base class resolves which named throttlers apply and their trackers; this class gathers
 * them and counts them together, with the spec's headers and error envelope instead of the
 * library's `X-RateLimit-*` and exception.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  private readonly planned = new WeakMap<object, LimitCheck[]>();

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly limits: RequestLimits,
  ) {
    super(options, storage, reflector);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const { req, res } = this.getRequestResponse(context);
    const checks: LimitCheck[] = [];
    this.planned.set(req, checks);
    try {
      await super.canActivate(context);
    } finally {
      this.planned.delete(req);
    }
    const nearest = await this.limits.count(res as Response, checks);
    if (nearest?.exceeded) {
      throw rateLimited(nearest);
    }
    return true;
  }

  /** Called by the base class once per applicable throttler: plan it, count later. */
  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    const { context, throttler, limit, ttl } = request;
    const { req } = this.getRequestResponse(context);
    const name = throttler.name ?? 'default';
    const tracker = await request.getTracker(req, context);
    this.planned.get(req)?.push({
      policy: { name, limit, windowSeconds: ttl / 1000 },
      key: request.generateKey(context, tracker, name),
    });
    return true;
  }
}
