export * from './address-check.service.js';
export * from './amounts.js';
export * from './catalogue.module.js';
export * from './catalogue.service.js';
export * from './ticker-aliases.js';
