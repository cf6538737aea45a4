import 'reflect-metadata';
import { loadSandboxConfig } from '#app/config';
import { createRootLogger, logDestination, resolveLogFormat } from '#app/logging';
import { runProcess } from '#app/process';
import { startSandbox } from './sandbox.bootstrap.js';

await runProcess('sandbox', async () => {
  const config = loadSandboxConfig(process.env);
  const logger = createRootLogger(
    config.logLevel,
    logDestination(resolveLogFormat(process.env, 'json')),
  );
  // Its own process serves other containers (docker-compose), so it listens on every interface.
  const sandbox = await startSandbox(config, logger, { host: '0.0.0.0' });
  logger.info(
    { port: config.port, url: sandbox.url, seed: config.seed, stepMs: config.stepMs },
    'sandbox provider listening',
  );
});
