import { Module } from '@nestjs/common';
import { PartnersModule } from '#app/partners';
import { RateLimitingModule } from '../rate-limiting/rate-limiting.module.js';

/** What the guards of `@PartnerApi()` need: the credential authenticator and the limits. */
@Module({
  imports: [PartnersModule, RateLimitingModule],
  exports: [PartnersModule, RateLimitingModule],
})
export class PartnerApiModule {}
