import { Global, Module } from '@nestjs/common';
import { UpstreamSlotsRepository } from './upstream-slots.repository.js';

/** The Postgres side of the upstream budget. Needs the app's PersistenceModule. */
@Global()
@Module({ providers: [UpstreamSlotsRepository], exports: [UpstreamSlotsRepository] })
export class RateLimitModule {}
