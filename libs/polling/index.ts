export * from './poll-cycles.repository.js';
export * from './poll-metrics.js';
export * from './polling.module.js';
export * from './refresh-writer.js';
export * from './settlement-plan.js';
export * from './swap-polling.service.js';
export * from './swap-refresher.js';
export * from './usd-pricer.js';
