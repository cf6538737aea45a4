import { DynamicModule, Module } from '@nestjs/common';
import { RedisModule } from '#app/redis';
import { HealthController } from './health.controller.js';
import { HEALTH_OPTIONS, HealthService, type HealthOptions } from './health.service.js';

/** `/health` and `/ready` as HTTP routes of the app. */
@Module({})
export class HealthModule {
  static forRoot(options: HealthOptions): DynamicModule {
    return {
      module: HealthModule,
      imports: [RedisModule],
      controllers: [HealthController],
      providers: [{ provide: HEALTH_OPTIONS, useValue: options }, HealthService],
      exports: [HealthService],
    };
  }
}

/** The same probes without the HTTP controller, for processes that serve them themselves. */
@Module({})
export class HealthProbesModule {
  static forRoot(options: HealthOptions): DynamicModule {
    return {
      module: HealthProbesModule,
      imports: [RedisModule],
      providers: [{ provide: HEALTH_OPTIONS, useValue: options }, HealthService],
      exports: [HealthService],
    };
  }
}
