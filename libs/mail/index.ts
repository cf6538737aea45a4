export * from './mail.module.js';
export * from './mailer.js';
