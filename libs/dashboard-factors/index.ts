export * from './dashboard-factors.module.js';
export * from './factor.keys.js';
export * from './passkeys.service.js';
export * from './pending-sign-ins.service.js';
export * from './relying-party.js';
export * from './totp.codes.js';
export * from './totp.service.js';
