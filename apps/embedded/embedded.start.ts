import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import {
  loadApiConfig,
  loadEmbeddedConfig,
  loadPollerConfig,
  loadSandboxConfig,
} from '#app/config';
import { initProcessLogging, resolveLogFormat } from '#app/logging';
import { runMigrations } from '#app/persistence';
import { guardProcess, runProcess } from '#app/process';
import { createApiApp } from '../api/api.bootstrap.js';
import { startPoller } from '../poller/poller.bootstrap.js';
import { startSandbox } from '../sandbox/sandbox.bootstrap.js';
import { demoBanner, ensureDemoOrganization, ensureDemoOwner } from './demo-seed.js';
import { startDemoWidget } from './demo-widget.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { loadOrCreateSecrets } from './embedded-secrets.js';

/**
 * `npm start` with no environment (docs/decisions.md, "Embedded start"): embedded PostgreSQL,
 * in-process stores, the sandbox provider, the api and the poller, all in this one process.
 */
await runProcess('embedded', async () => {
  const embedded = loadEmbeddedConfig(process.env);
  const secrets = loadOrCreateSecrets(embedded.dataDir);
  const env: Record<string, string | undefined> = {
    ADMIN_TOKEN: secrets.adminToken,
    CREDENTIAL_ENCRYPTION_KEY: secrets.credentialEncryptionKey,
    PROVIDER_PRIVATE_KEY: secrets.providerPrivateKeyPem,
    SANDBOX_PUBLIC_KEY: secrets.providerPublicKeyPem,
    // A local receiver (http://127.0.0.1:…) is what a developer's webhooks go to.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    PROVIDERS: 'changelly,changenow',
    ...process.env,
  };
  // A person at a terminal reads lines; piped to a file or a collector, it stays JSON.
  const logger = initProcessLogging(
    env.LOG_LEVEL ?? 'info',
    resolveLogFormat(env, process.stdout.isTTY ? 'pretty' : 'json'),
  );
  guardProcess('embedded', logger);
  const shutdown: (() => Promise<void>)[] = [];
  let stopping = false;
  let starting: Promise<unknown> = Promise.resolve();
  // Armed before anything starts: a Ctrl-C during start-up waits for the step in flight, then
  // stops what is running, the apps before the database.
  const stop = (signal: string): void => {
    if (stopping) {
      return;
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    void starting
      .catch(() => undefined)
      .then(() =>
        shutdown.reduce(
          (chain, step) =>
            chain.then(step).catch((error: unknown) => {
              logger.warn(
                { err: error instanceof Error ? error.message : String(error) },
                'stop step failed',
              );
            }),
          Promise.resolve(),
        ),
      )
      .finally(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  const step = async <T>(start: () => Promise<T>): Promise<T | null> => {
    if (stopping) {
      return null;
    }
    const running = start();
    starting = running;
    return running;
  };

  if (!embedded.databaseUrl) {
    const postgres = await step(() =>
      startEmbeddedPostgres(
        embedded.dataDir,
        embedded.postgresPort,
        secrets.postgresPassword,
        logger,
      ),
    );
    if (!postgres) {
      return;
    }
    env.DATABASE_URL = postgres.url;
    shutdown.unshift(() => postgres.stop());
  }
  // The in-process sandbox stands in for whichever provider endpoint the operator did not name:
  // the live ones for a demo, the test ones always (test mode needs no real provider). It serves
  // both providers; its ChangeNOW key is made up for this run and given only to the endpoints
  // it stands in for, never an operator's real key.
  const { providerUrl, testProviderUrl, changenowUrl, testChangenowUrl } = embedded;
  if (!providerUrl || !testProviderUrl || !changenowUrl || !testChangenowUrl) {
    const sandboxKey = randomBytes(24).toString('hex');
    const sandbox = await step(() =>
      startSandbox(loadSandboxConfig({ ...env, CHANGENOW_API_KEY: sandboxKey }), logger, {
        shutdownHooks: false,
      }),
    );
    if (!sandbox) {
      return;
    }
    env.PROVIDER_URL ??= sandbox.url;
    env.TEST_PROVIDER_URL ??= sandbox.url;
    if (!changenowUrl) {
      env.CHANGENOW_URL = sandbox.changenowUrl;
      env.CHANGENOW_API_KEY = sandboxKey;
    }
    if (!testChangenowUrl) {
      env.TEST_CHANGENOW_URL = sandbox.changenowUrl;
      env.TEST_CHANGENOW_API_KEY = sandboxKey;
    }
    shutdown.unshift(() => sandbox.close());
  }

  const apiConfig = loadApiConfig(env, { allowInProcessStores: true });
  const api = await step(async () => {
    await runMigrations(apiConfig.database.url);
    const app = await createApiApp(apiConfig, logger, { shutdownHooks: false });
    await app.listen(apiConfig.port, embedded.host);
    return app;
  });
  if (!api) {
    return;
  }
  shutdown.unshift(() => api.close());
  const poller = await step(() =>
    startPoller(loadPollerConfig(env, { allowInProcessStores: true }), logger, {
      shutdownHooks: false,
      host: embedded.host,
    }),
  );
  if (!poller) {
    return;
  }
  shutdown.unshift(() => poller.close());

  const demo = await step(() => ensureDemoOrganization(api));
  if (demo) {
    const owner = await ensureDemoOwner(api, demo.organizationId, embedded.dataDir);
    // localhost, not 127.0.0.1: passkeys (WebAuthn) need a host name; it is loopback, which
    // the api listens on unless HOST names another single address.
    const dashboardHost = ['127.0.0.1', '::1', '0.0.0.0', '::'].includes(embedded.host)
      ? 'localhost'
      : isIP(embedded.host) === 6
        ? `[${embedded.host}]`
        : embedded.host;
    const dashboardUrl = `${apiConfig.dashboard.publicUrl ?? `http://${dashboardHost}:${apiConfig.port}`}/partner`;
    process.stdout.write(
      demoBanner(embedded.host, apiConfig.port, demo, apiConfig.adminToken, {
        dashboardUrl,
        ...owner,
      }),
    );
    const widget = await step(() => startDemoWidget(api, demo.organizationId, apiConfig.port));
    if (widget) {
      shutdown.unshift(() => widget.close());
      process.stdout.write(
        [
          'Swap widget demo (test mode):',
          `  Test widget key:  ${widget.key}`,
          `  Demo page:        ${widget.pageUrl}   (open it in a browser)`,
          '',
        ].join('\n'),
      );
    }
  }
});
