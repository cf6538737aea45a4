export * from './earnings.repository.js';
export * from './earnings.service.js';
export * from './housekeeping.service.js';
export * from './poll-metrics.js';
export * from './settlement-plan.js';
export * from './settlement.module.js';
export * from './swap-polling.service.js';
export * from './usd-pricer.js';
