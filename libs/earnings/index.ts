export * from './activity.repository.js';
export * from './activity.service.js';
export * from './earnings.module.js';
export * from './earnings.repository.js';
export * from './earnings.service.js';
export * from './partner-earnings.module.js';
export * from './payout-address.service.js';
