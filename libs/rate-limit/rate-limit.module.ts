import { Module } from '@nestjs/common';
import { UpstreamSlotsRepository } from './upstream-slots.repository.js';

/** The Postgres side of the upstream budget (the connection comes from the process's CoreModule). */
@Module({ providers: [UpstreamSlotsRepository], exports: [UpstreamSlotsRepository] })
export class RateLimitModule {}
