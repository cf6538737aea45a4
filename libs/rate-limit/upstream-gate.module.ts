import { Module } from '@nestjs/common';
import { UPSTREAM_CONFIG, type UpstreamConfig } from '#app/config';
import { requestContext } from '#app/logging';
import { KEY_VALUE_STORE, RedisModule, type KeyValueStore } from '#app/redis';
import { RateLimitModule } from './rate-limit.module.js';
import { UPSTREAM_GATES, type UpstreamGate, type UpstreamGates } from './upstream-gate.js';
import { UpstreamBudget } from './upstream-budget.js';
import { UpstreamSlotsRepository } from './upstream-slots.repository.js';

/**
 * Puts every provider call of this process behind a shared upstream budget, one per provider and
 * mode, at the process's `upstreamPriority`. A partner call spends its organization's
 * share too: the organization is the one the request authenticated (the request context every log
 * line carries).
 */
@Module({
  imports: [RedisModule, RateLimitModule],
  providers: [
    {
      provide: UPSTREAM_GATES,
      useFactory: (
        upstream: UpstreamConfig,
        store: KeyValueStore,
        slots: UpstreamSlotsRepository,
      ): UpstreamGates => {
        const gates = new Map<string, UpstreamGate>();
        return {
          forBudget: (name, ratePerSecond) => {
            let gate = gates.get(name);
            if (!gate) {
              const budget = new UpstreamBudget(name, store, slots, ratePerSecond);
              gate = {
                acquire: () => budget.acquire(upstream.priority, requestContext.getStore()?.orgId),
              };
              gates.set(name, gate);
            }
            return gate;
          },
        };
      },
      inject: [UPSTREAM_CONFIG, KEY_VALUE_STORE, UpstreamSlotsRepository],
    },
  ],
  exports: [UPSTREAM_GATES],
})
export class UpstreamGateModule {}
