export * from './retry.schedule.js';
export * from './target.guard.js';
export * from './webhook.sender.js';
export * from './webhook.signer.js';
