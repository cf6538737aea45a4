import { loadTracingConfig } from '#app/config';
import { runProcess } from '#app/process';
import { startTracing } from '#app/tracing';

// Tracing, when configured, wraps express, pg, ioredis and http as they load: the embedded is
// imported only once it has started (docs/decisions.md, "Tracing").
await runProcess('embedded', () => startTracing(loadTracingConfig(process.env, 'swap-partners')));
await import('./embedded.start.js');
