export * from './fixed-rates.repository.js';
export * from './quote.js';
export * from './quotes-data.module.js';
export * from './quotes.module.js';
export * from './quotes.service.js';
