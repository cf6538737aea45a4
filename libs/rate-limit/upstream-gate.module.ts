import { DynamicModule, Module } from '@nestjs/common';
import { requestContext } from '#app/logging';
import { UPSTREAM_GATE, type UpstreamGate } from '#app/provider';
import { KEY_VALUE_STORE, type KeyValueStore } from '#app/redis';
import { UpstreamBudget, type UpstreamPriority } from './upstream-budget.js';
import { UpstreamSlotsRepository } from './upstream-slots.repository.js';

export interface UpstreamGateOptions {
  priority: UpstreamPriority;
  /** Whose slots the calls spend (`live`). */
  budget: string;
}

/**
 * Puts every provider call of this process behind a shared upstream budget. A partner call
 * spends its organization's share too: the organization is the one the request authenticated
 * (the request context every log line carries).
 */
@Module({})
export class UpstreamGateModule {
  static forRoot(options: UpstreamGateOptions): DynamicModule {
    return {
      module: UpstreamGateModule,
      global: true,
      providers: [
        {
          provide: UPSTREAM_GATE,
          useFactory: (store: KeyValueStore, slots: UpstreamSlotsRepository): UpstreamGate => {
            const budget = new UpstreamBudget(options.budget, store, slots);
            return {
              acquire: () => budget.acquire(options.priority, requestContext.getStore()?.orgId),
            };
          },
          inject: [KEY_VALUE_STORE, UpstreamSlotsRepository],
        },
      ],
      exports: [UPSTREAM_GATE],
    };
  }
}
