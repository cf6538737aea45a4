export * from './changelly.adapter.js';
export * from './changelly.wire.js';
export * from './json-rpc.client.js';
export * from './liquidity-provider.js';
export * from './provider.error.js';
export * from './provider.module.js';
export * from './request-signer.js';
export * from './time.js';
