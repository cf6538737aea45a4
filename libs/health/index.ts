export * from './health.controller.js';
export * from './health.module.js';
export * from './health.service.js';
export * from './probe.server.js';
export * from './dependency.gauge.js';
