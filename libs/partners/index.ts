export * from './audit-log.repository.js';
export * from './credential.authenticator.js';
export * from './credential.cipher.js';
export * from './organizations.repository.js';
export * from './organizations.service.js';
export * from './partner.js';
export * from './partners.module.js';
