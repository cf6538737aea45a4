export * from './express-adapter.js';
export * from './http-app.setup.js';
export * from './json-body.middleware.js';
export * from './method-not-allowed.middleware.js';
export * from './request-id.middleware.js';
export * from './server-timeouts.js';
export * from './validation.pipe.js';
