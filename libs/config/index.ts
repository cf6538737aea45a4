export * from './app.config.js';
export * from './config.error.js';
export * from './config.module.js';
export * from './config.namespaces.js';
export * from './tracing.config.js';
