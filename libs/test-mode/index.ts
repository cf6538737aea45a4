export * from './test-helpers.service.js';
export * from './test-mode.module.js';
