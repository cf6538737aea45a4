import { Registry } from 'prom-client';
import type { StoreHealth } from '#app/redis';
import { addDependencyGauge } from './dependency.gauge.js';

describe(addDependencyGauge.name, () => {
  function scrape(postgres: boolean, redis: StoreHealth): Promise<string> {
    const registry = new Registry();
    addDependencyGauge(registry, { dependencies: () => Promise.resolve({ postgres, redis }) });
    return registry.metrics();
  }

  it('shows each dependency up as 1 and down as 0, as of the scrape', async () => {
    const sut = await scrape(true, 'down');

    expect(sut).toMatch(/^dependency_up\{dependency="postgres"\} 1$/m);
    expect(sut).toMatch(/^dependency_up\{dependency="redis"\} 0$/m);
  });

  it('shows no Redis series for a process on its in-process stores', async () => {
    const sut = await scrape(false, 'in_process');

    expect(sut).toMatch(/^dependency_up\{dependency="postgres"\} 0$/m);
    expect(sut).not.toContain('dependency="redis"');
  });
});
