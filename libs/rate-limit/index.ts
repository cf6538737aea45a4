export * from './rate-limit.error.js';
export * from './rate-limit.policy.js';
export * from './rate-limit.module.js';
export * from './throttler.storage.js';
export * from './upstream-budget.js';
export * from './upstream-gate.js';
export * from './upstream-gate.module.js';
export * from './upstream-slots.repository.js';
