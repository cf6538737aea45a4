import { Global, Module } from '@nestjs/common';
import { RateLimiter } from './rate-limiter.js';
import { UpstreamBudget } from './upstream-budget.js';

/** Needs the global RedisModule. */
@Global()
@Module({ providers: [RateLimiter, UpstreamBudget], exports: [RateLimiter, UpstreamBudget] })
export class RateLimitModule {}
