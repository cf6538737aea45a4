import { Gauge, type Registry } from 'prom-client';
import type { HealthService } from './health.service.js';

/**
 * `dependency_up{dependency}` in `registry`: 1 while Postgres (and Redis, unless the process runs
 * on its in-process stores) answers a ping, 0 while it does not, checked at every scrape as
 * `/ready` checks it. A probe that fails answers 0, never a failed scrape: the alert on it must
 * see the outage, not lose the series.
 */
export function addDependencyGauge(
  registry: Registry,
  health: Pick<HealthService, 'dependencies'>,
): Gauge<'dependency'> {
  return new Gauge({
    name: 'dependency_up',
    help: 'Whether the process reaches each dependency (1) or not (0), checked at every scrape.',
    labelNames: ['dependency'] as const,
    registers: [registry],
    async collect() {
      const state = await health.dependencies();
      this.set({ dependency: 'postgres' }, state.postgres ? 1 : 0);
      if (state.redis !== 'in_process') {
        this.set({ dependency: 'redis' }, state.redis === 'up' ? 1 : 0);
      }
    },
  });
}
