export * from './bearer.js';
export * from './fields.js';
export * from './plain-text.validator.js';
