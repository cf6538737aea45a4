export * from './status-token.js';
export * from './widget-caller.js';
export * from './widget-key.authenticator.js';
export * from './widget-key.js';
export * from './widget-key.view.js';
export * from './widget-keys.repository.js';
export * from './widget-keys.service.js';
export * from './widgets.module.js';
