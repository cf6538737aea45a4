export * from './log-format.js';
export * from './logger.factory.js';
export * from './pino-nest.logger.js';
export * from './request-context.js';
