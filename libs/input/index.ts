export * from './bearer.js';
export * from './plain-text.validator.js';
