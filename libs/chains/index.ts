export * from './address.codec.js';
export * from './base58check.js';
export * from './cashaddr.js';
export * from './eip55.js';
export * from './segwit.js';
export * from './strkey.js';
