import { loadTracingConfig } from '#app/config';
import { runProcess } from '#app/process';
import { startTracing } from '#app/tracing';

// Tracing, when configured, wraps express, pg, ioredis and http as they load: the api is
// imported only once it has started (docs/decisions.md, "Tracing").
await runProcess('api', () => startTracing(loadTracingConfig(process.env, 'swap-api')));
await import('./api.start.js');
