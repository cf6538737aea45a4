/**
 * In-memory stand-ins of the repositories and ports the unit specs wire through Nest
 * (`overrideProvider`/`useValue`). Each implements the public surface it replaces, so a changed
 * signature of the real one breaks its fake at compile time.
 */
export * from './catalogue.js';
export * from './data-source.js';
export * from './earnings.js';
export * from './event-recorder.js';
export * from './fixed-rates.js';
export * from './idempotency-keys.js';
export * from './liquidity-provider.js';
export * from './poll-cycles.js';
export * from './refresh-writer.js';
export * from './swap-views.js';
export * from './swaps.js';
export * from './usd-pricer.js';
export * from './routing.js';
