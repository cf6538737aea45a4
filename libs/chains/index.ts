export * from './address.codec.js';
export * from './base58.js';
export * from './bech32.js';
export * from './cashaddr.js';
export * from './eip55.js';
export * from './strkey.js';
