export * from './key-value.store.js';
export * from './memory.store.js';
export * from './redis.module.js';
export * from './redis.store.js';
export * from './tiered.cache.js';
