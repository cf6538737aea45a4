export * from './data-source.options.js';
export * from './entities/index.js';
export * from './entity-columns.js';
export * from './migrator.js';
export * from './persistence.module.js';
export * from './prepared-reads.js';
export * from './query-rows.js';
