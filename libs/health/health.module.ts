import { Module } from '@nestjs/common';
import { RedisModule } from '#app/redis';
import { HealthController } from './health.controller.js';
import { HealthService } from './health.service.js';

/** `/health` and `/ready` as HTTP routes of the app; the build reported follows `HEALTH_CONFIG`. */
@Module({
  imports: [RedisModule],
  controllers: [HealthController],
  providers: [HealthService],
  exports: [HealthService],
})
export class HealthModule {}

/** The same probes without the HTTP controller, for processes that serve them themselves. */
@Module({
  imports: [RedisModule],
  providers: [HealthService],
  exports: [HealthService],
})
export class HealthProbesModule {}
