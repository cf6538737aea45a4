export * from './run-process.js';
export * from './process-guard.js';
