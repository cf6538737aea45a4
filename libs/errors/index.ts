export * from './all-exceptions.filter.js';
export * from './app.error.js';
export * from './error-code.js';
export * from './error-envelope.js';
export * from './http-error.mapper.js';
