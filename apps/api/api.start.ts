import 'reflect-metadata';
import { loadApiConfig } from '#app/config';
import { initProcessLogging, resolveLogFormat } from '#app/logging';
import { runMigrations } from '#app/persistence';
import { guardProcess, runProcess } from '#app/process';
import { createApiApp } from './api.bootstrap.js';

await runProcess('api', async () => {
  const config = loadApiConfig(process.env);
  const logger = initProcessLogging(config.logLevel, resolveLogFormat(process.env, 'json'));
  guardProcess('api', logger);
  await runMigrations(config.database.url);
  const app = await createApiApp(config, logger);
  await app.listen(config.port, '0.0.0.0');
  logger.info({ port: config.port, env: config.appEnv, version: config.version }, 'api listening');
});
