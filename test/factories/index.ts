/**
 * Builders of the unit specs' data, in memory. The end-to-end helpers that write through the
 * database or the app (`partners.ts`, `swaps.ts`) are imported by their path.
 */
export * from './authenticated-partner.js';
export * from './events.js';
export * from './fixed-rates.js';
export * from './provider.js';
export * from './swap-entities.js';
