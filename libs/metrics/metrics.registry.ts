import { collectDefaultMetrics, Registry } from 'prom-client';

let processMetrics: Registry | undefined;

/**
 * prom-client's default process and event-loop metrics (`process_cpu_seconds_total`,
 * `nodejs_eventloop_lag_seconds`…), collected once per process. Each collection starts its own
 * CPU baseline, event-loop monitor and GC observer that are never released, so one per app
 * instance would leak in tests and give the apps of the embedded start different CPU totals for
 * the same process.
 */
function processMetricsRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}

/**
 * A registry for one app instance, never prom-client's global one: several apps run in one process
 * (tests, the embedded start), each with its own series. It also shows the process metrics,
 * shared with every other app registry of the process.
 */
export function createAppRegistry(): Registry {
  // A new registry holding the same process metric objects, not copies of them.
  return Registry.merge([processMetricsRegistry()]);
}
