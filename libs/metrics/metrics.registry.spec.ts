import { Counter, register } from 'prom-client';
import { createAppRegistry } from './metrics.registry.js';

describe(createAppRegistry.name, () => {
  it('gives each app instance its own series under the same names, outside the global registry', async () => {
    const apps = [createAppRegistry(), createAppRegistry()];
    const [first, second] = apps.map(
      (registry) =>
        new Counter({ name: 'app_events_total', help: 'Events.', registers: [registry] }),
    );

    first.inc(2);
    second.inc();

    expect(await apps[0].metrics()).toMatch(/^app_events_total 2$/m);
    expect(await apps[1].metrics()).toMatch(/^app_events_total 1$/m);
    expect(await register.metrics()).not.toContain('app_events_total');
  });

  it('shows the process metrics in every app registry, collected once per process', async () => {
    const first = createAppRegistry();
    const second = createAppRegistry();

    for (const name of ['process_cpu_seconds_total', 'nodejs_eventloop_lag_seconds']) {
      expect(first.getSingleMetric(name)).toBeDefined();
      expect(second.getSingleMetric(name)).toBe(first.getSingleMetric(name));
      expect(await second.metrics()).toMatch(new RegExp(`^${name} [\\d.e+-]+$`, 'm'));
    }
  });
});
