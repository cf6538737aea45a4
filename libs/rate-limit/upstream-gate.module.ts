import { DynamicModule, Module } from '@nestjs/common';
import { requestContext } from '#app/logging';
import { UPSTREAM_GATES, type UpstreamGate, type UpstreamGates } from '#app/provider';
import { KEY_VALUE_STORE, type KeyValueStore } from '#app/redis';
import { UpstreamBudget, type UpstreamPriority } from './upstream-budget.js';
import { UpstreamSlotsRepository } from './upstream-slots.repository.js';

export interface UpstreamGateOptions {
  priority: UpstreamPriority;
}

/**
 * Puts every provider call of this process behind a shared upstream budget, one per mode
 * (`live`, `test`). A partner call spends its organization's share too: the organization is the
 * one the request authenticated (the request context every log line carries).
 */
@Module({})
export class UpstreamGateModule {
  static forRoot(options: UpstreamGateOptions): DynamicModule {
    return {
      module: UpstreamGateModule,
      global: true,
      providers: [
        {
          provide: UPSTREAM_GATES,
          useFactory: (store: KeyValueStore, slots: UpstreamSlotsRepository): UpstreamGates => {
            const gates = new Map<string, UpstreamGate>();
            return {
              forBudget: (name) => {
                let gate = gates.get(name);
                if (!gate) {
                  const budget = new UpstreamBudget(name, store, slots);
                  gate = {
                    acquire: () =>
                      budget.acquire(options.priority, requestContext.getStore()?.orgId),
                  };
                  gates.set(name, gate);
                }
                return gate;
              },
            };
          },
          inject: [KEY_VALUE_STORE, UpstreamSlotsRepository],
        },
      ],
      exports: [UPSTREAM_GATES],
    };
  }
}
