export * from './metrics.registry.js';
