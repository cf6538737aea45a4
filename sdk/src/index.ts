export * from './client.js';
export * from './errors.js';
export * from './listen.js';
export * from './webhooks.js';
export type { components, paths, webhooks } from './schema.js';
