import { loadTracingConfig } from '#app/config';
import { runProcess } from '#app/process';
import { startTracing } from '#app/tracing';

// Tracing, when configured, wraps express, pg, ioredis and http as they load: the poller is
// imported only once it has started (docs/decisions.md, "Tracing").
await runProcess('poller', () => startTracing(loadTracingConfig(process.env, 'swap-poller')));
await import('./poller.start.js');
