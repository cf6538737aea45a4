export * from './provider-control.module.js';
export * from './provider-control.service.js';
export * from './provider.view.js';
