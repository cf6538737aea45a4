import { AppError, ErrorCode } from '#app/errors';
import type { RateLimitState } from './rate-limit.policy.js';

export function rateLimited(state: RateLimitState): AppError {
  const retryAfterMs = Math.max(1000, Math.ceil(state.resetMs / 1000) * 1000);
  return new AppError(
    ErrorCode.RateLimited,
    `Rate limit of ${state.policy.limit} requests per ${state.policy.windowSeconds} s exceeded. Retry after ${retryAfterMs / 1000} s.`,
    { retryAfterMs },
  );
}
