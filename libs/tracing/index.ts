export * from './tracing.js';
