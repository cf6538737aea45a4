import { Module } from '@nestjs/common';
import { RateLimitingModule } from '../rate-limiting/rate-limiting.module.js';
import { AdminAuthModule } from './admin-auth.module.js';

/** What the guards of `@AdminApi()` need: the admin token check and the limits. */
@Module({
  imports: [AdminAuthModule, RateLimitingModule],
  exports: [AdminAuthModule, RateLimitingModule],
})
export class AdminApiModule {}
