import { Global, Module } from '@nestjs/common';
import { UpstreamBudget } from './upstream-budget.js';

/** Needs the global RedisModule. */
@Global()
@Module({ providers: [UpstreamBudget], exports: [UpstreamBudget] })
export class RateLimitModule {}
