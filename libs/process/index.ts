export * from './run-process.js';
