import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { SharedThrottlerStorage } from '#app/rate-limit';
import { KEY_VALUE_STORE, RedisModule, type KeyValueStore } from '#app/redis';
import { RateLimitGuard } from './rate-limit.guard.js';
import { RequestLimits } from './request-limits.js';
import { throttlerOptions } from './throttlers.js';

/** The spec's request limits on `@nestjs/throttler`, shared by every replica through the store. */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      imports: [RedisModule],
      useFactory: (store: KeyValueStore) => throttlerOptions(new SharedThrottlerStorage(store)),
      inject: [KEY_VALUE_STORE],
    }),
  ],
  providers: [RequestLimits, RateLimitGuard],
  exports: [RequestLimits, RateLimitGuard, ThrottlerModule],
})
export class RateLimitingModule {}
