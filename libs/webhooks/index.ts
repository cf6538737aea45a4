export * from './delivery/index.js';
