export * from './prometheus.js';
