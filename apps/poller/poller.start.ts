import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { loadPollerConfig } from '#app/config';
import { initProcessLogging, resolveLogFormat } from '#app/logging';
import { runMigrations } from '#app/persistence';
import { guardProcess, runProcess } from '#app/process';
import { startPoller } from './poller.bootstrap.js';

await runProcess('poller', async () => {
  const config = loadPollerConfig(process.env);
  const logger = initProcessLogging(config.logLevel, resolveLogFormat(process.env, 'json'));
  guardProcess('poller', logger);
  await runMigrations(config.database.url);
  const poller = await startPoller(config, logger);
  process.once('SIGTERM', () => void poller.probes.close());
  logger.info(
    {
      healthPort: (poller.probes.address() as AddressInfo).port,
      intervalMs: config.pollIntervalMs,
      owner: poller.owner,
    },
    'poller started',
  );
});
