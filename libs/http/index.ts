export * from './bearer.js';
export * from './express-adapter.js';
export * from './http-app.setup.js';
export * from './json-body.middleware.js';
export * from './plain-text.validator.js';
export * from './request-id.middleware.js';
export * from './server-timeouts.js';
export * from './validation.pipe.js';
