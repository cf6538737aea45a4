export * from './event-outbox.js';
export * from './event.js';
export * from './event.recorder.js';
export * from './events-query.service.js';
export * from './events.module.js';
export * from './events.repository.js';
