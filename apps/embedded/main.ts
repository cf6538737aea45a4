import 'reflect-metadata';
import {
  loadApiConfig,
  loadEmbeddedConfig,
  loadPollerConfig,
  loadSandboxConfig,
} from '#app/config';
import { initProcessLogging, resolveLogFormat } from '#app/logging';
import { runMigrations } from '#app/persistence';
import { runProcess } from '#app/process';
import { createApiApp } from '../api/api.bootstrap.js';
import { startPoller } from '../poller/poller.bootstrap.js';
import { startSandbox } from '../sandbox/sandbox.bootstrap.js';
import { demoBanner, ensureDemoOrganization } from './demo-seed.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { loadOrCreateSecrets } from './embedded-secrets.js';

/**
 * `npm start` with no environment (DECISIONS §2): embedded PostgreSQL, in-process stores, the
 * sandbox provider, the api and the poller, all in this one process.
 */
await runProcess('embedded', async () => {
  const embedded = loadEmbeddedConfig(process.env);
  const secrets = loadOrCreateSecrets(embedded.dataDir);
  const env: Record<string, string | undefined> = {
    ADMIN_TOKEN: secrets.adminToken,
    CREDENTIAL_ENCRYPTION_KEY: secrets.credentialEncryptionKey,
    PROVIDER_PRIVATE_KEY: secrets.providerPrivateKeyPem,
    SANDBOX_PUBLIC_KEY: secrets.providerPublicKeyPem,
    ...process.env,
  };
  // A person at a terminal reads lines; piped to a file or a collector, it stays JSON.
  const logger = initProcessLogging(
    env.LOG_LEVEL ?? 'info',
    resolveLogFormat(env, process.stdout.isTTY ? 'pretty' : 'json'),
  );
  const shutdown: (() => Promise<void>)[] = [];

  if (!embedded.databaseUrl) {
    const postgres = await startEmbeddedPostgres(
      embedded.dataDir,
      embedded.postgresPort,
      secrets.postgresPassword,
      logger,
    );
    env.DATABASE_URL = postgres.url;
    shutdown.unshift(() => postgres.stop());
  }
  if (!embedded.providerUrl) {
    const sandbox = await startSandbox(loadSandboxConfig(env), logger);
    env.PROVIDER_URL = sandbox.url;
    shutdown.unshift(() => sandbox.close());
  }

  const apiConfig = loadApiConfig(env, { allowInProcessStores: true });
  await runMigrations(apiConfig.database.url);
  const api = await createApiApp(apiConfig, logger, { shutdownHooks: false });
  await api.listen(apiConfig.port, '0.0.0.0');
  shutdown.unshift(() => api.close());
  const poller = await startPoller(loadPollerConfig(env, { allowInProcessStores: true }), logger, {
    shutdownHooks: false,
  });
  shutdown.unshift(() => poller.close());

  const demo = await ensureDemoOrganization(api);
  process.stdout.write(
    demoBanner(`http://127.0.0.1:${apiConfig.port}`, demo, apiConfig.adminToken),
  );

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) {
      return;
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    void shutdown
      .reduce((chain, step) => chain.then(step).catch(() => undefined), Promise.resolve())
      .finally(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
});
