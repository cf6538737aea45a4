export * from './mail.js';
export * from './mail.dispatcher.js';
export * from './mail.metrics.js';
export * from './mail.module.js';
export * from './mail-outbox.repository.js';
export * from './mail.transport.js';
export * from './mailer.js';
