import { SetMetadata } from '@nestjs/common';
import type { POLICIES } from '#app/rate-limit';

/** The name of one of the spec's limits; also the name of its throttler. */
export type LimitName = (typeof POLICIES)[keyof typeof POLICIES]['name'];

export const RATE_LIMITS = 'rateLimits';

/**
 * The limits of the spec's Limits table a route is counted against (docs/decisions.md, "Rate limits
 * on @nestjs/throttler"), all in one store round trip by `RateLimitGuard`. A route without it is
 * unmetered.
 */
export const RateLimits = (...names: LimitName[]): ClassDecorator & MethodDecorator =>
  SetMetadata(RATE_LIMITS, names);
