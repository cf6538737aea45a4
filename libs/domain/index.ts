export * from './amounts.js';
export * from './earnings.js';
export * from './organization.js';
export * from './provider-name.js';
export * from './provider-status.js';
export * from './swap-mode.js';
export * from './swap-status.js';
export * from './swap-view.js';
