import { DynamicModule, Module } from '@nestjs/common';
import { UPSTREAM_GATE, type UpstreamGate } from '#app/provider';
import { UpstreamBudget, type UpstreamPriority } from './upstream-budget.js';

/** Puts every provider call of this process behind the shared upstream budget. */
@Module({})
export class UpstreamGateModule {
  static forRoot(priority: UpstreamPriority): DynamicModule {
    return {
      module: UpstreamGateModule,
      global: true,
      providers: [
        {
          provide: UPSTREAM_GATE,
          useFactory: (budget: UpstreamBudget): UpstreamGate => ({
            acquire: () => budget.acquire(priority),
          }),
          inject: [UpstreamBudget],
        },
      ],
      exports: [UPSTREAM_GATE],
    };
  }
}
