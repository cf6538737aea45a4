export * from './field.js';
export * from './flash.js';
export * from './form.js';
export * from './layout.js';
export * from './table.js';
