export * from './app.config.js';
export * from './config.error.js';
