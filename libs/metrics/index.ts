export * from './metrics.registry.js';
export * from './budget-exhaustion.counter.js';
