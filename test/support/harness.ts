import { pino, type Logger as Pino } from 'pino';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import type { DashboardRole } from '#app/accounts';
import { loadPollerConfig, type SandboxConfig } from '#app/config';
import { startPoller, type PollerProcess } from '../../apps/poller/poller.bootstrap.js';
import { createPartner, type PartnerOptions, type TestPartner } from '../factories/partners.js';
import { startTestApi, testApiEnv, type TestApi } from './api.js';
import { type DashboardClient, signedInClient } from './dashboard.js';
import { openTestDataSource } from './database.js';
import { startMailRelay } from './mail-relay.js';
import { spawnService, type ServiceProcess } from './processes.js';
import type { StartSandboxOptions } from '../../apps/sandbox/sandbox.bootstrap.js';
import { bothProviders, startTestSandbox, type TestSandbox } from './sandbox.js';
import { startTestSmtp, type TestSmtp } from './smtp.js';

export interface HarnessOptions {
  /** The sandbox's settings (lifecycle step length, seed…). */
  sandbox?: Partial<SandboxConfig>;
  /** The sandbox's windows beyond its settings (fault timeout, rate validity, deposit windows…). */
  sandboxOptions?: StartSandboxOptions;
  /**
   * Which of the sandbox's providers the api routes to: Changelly alone (the default) or both
   * (`PROVIDERS=changelly,changenow`), live and test.
   */
  providers?: 'changelly' | 'both';
  /** Environment of the api (and poller) beyond the test defaults and the providers. */
  api?: Record<string, string | undefined>;
  /** The api's logger, for a suite that reads its log lines (quiet, or `LOG_LEVEL`, by default). */
  logger?: Pino;
  /** The ready partner's organization and credential (active, fee 1 %, live unless asked). */
  partner?: PartnerOptions;
  /** A real SMTP server in this process that the api mails to (`h.smtp`). */
  smtp?: boolean;
  /**
   * A dashboard user of this role in the ready partner's organization, signed in over HTTP
   * (`h.dashboard`); the api then mails to `h.smtp` too.
   */
  dashboard?: DashboardRole;
  /**
   * The built poller (`dist/apps/poller`) as a child process on the same database, Redis and
   * providers (`h.poller`): `true`, or its variables beyond the api's (`POLL_INTERVAL_MS`…).
   */
  poller?: boolean | Record<string, string | undefined>;
  /**
   * The poller in this process instead (`h.localPoller`), for suites that call its ticks and
   * services themselves (`h.localPoller.context.get(HousekeepingTick)`): `true`, or its variables
   * beyond the api's (`POLL_INTERVAL_MS: '60000'` keeps its own ticks out of the way).
   */
  localPoller?: boolean | Record<string, string | undefined>;
}

/**
 * What an end-to-end suite starts from: a sandbox provider over HTTP, the api in this process on
 * the file's own database and Redis prefix, a connection to inspect the database, an active
 * partner with a credential, and what the options ask for (SMTP, a signed-in dashboard user, a
 * poller). `close()` stops all of it; call it in `afterAll`.
 */
export interface Harness {
  sandbox: TestSandbox;
  api: TestApi;
  db: DataSource;
  partner: TestPartner;
  /** The SMTP server (options `smtp` or `dashboard`); throws when not started. */
  readonly smtp: TestSmtp;
  /** The signed-in dashboard client (option `dashboard`); throws when not started. */
  readonly dashboard: DashboardClient;
  /** The poller process (option `poller`); throws when not started. */
  readonly poller: ServiceProcess;
  /** The poller in this process (option `localPoller`); throws when not started. */
  readonly localPoller: PollerProcess;
  /** Another organization (or another credential's budget) in one line. */
  newPartner(options?: PartnerOptions): Promise<TestPartner>;
  /** A request as `who` (the ready partner by default) would send it, authorization set. */
  get(path: string, who?: TestPartner): request.Test;
  post(path: string, body: object, who?: TestPartner): request.Test;
  close(): Promise<void>;
}

function started<T>(value: T | undefined, option: string): T {
  if (value === undefined) {
    throw new Error(`the harness was started without { ${option} }`);
  }
  return value;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const sandbox = await startTestSandbox(options.sandbox, options.sandboxOptions);
  const opened: { close(): Promise<void> }[] = [sandbox];
  try {
    const smtp = options.smtp || options.dashboard ? await startTestSmtp() : undefined;
    if (smtp) {
      opened.unshift(smtp);
    }
    const env = {
      PROVIDER_URL: sandbox.url,
      TEST_PROVIDER_URL: sandbox.url,
      ...(options.providers === 'both' ? bothProviders(sandbox) : {}),
      ...(smtp ? { SMTP_URL: smtp.url } : {}),
      ...options.api,
    };
    const api = await startTestApi(env, options.logger);
    opened.unshift(api);
    const db = await openTestDataSource();
    opened.unshift({ close: () => db.destroy() });
    if (smtp) {
      // The api queues its mail; the poller's sender relays it to the SMTP server.
      const relay = startMailRelay(db, smtp.url);
      opened.unshift(relay);
    }
    const partner = await createPartner(api.app, options.partner);
    const dashboard = options.dashboard
      ? (await signedInClient(api, partner.organizationId, options.dashboard)).client
      : undefined;
    let poller: ServiceProcess | undefined;
    if (options.poller) {
      const extra = options.poller === true ? {} : options.poller;
      const running = await spawnService('poller', testApiEnv({ ...env, ...extra }));
      opened.unshift({ close: () => running.stop() });
      poller = running;
    }
    let localPoller: PollerProcess | undefined;
    if (options.localPoller) {
      const extra = options.localPoller === true ? {} : options.localPoller;
      const config = loadPollerConfig(testApiEnv({ ...env, POLLER_HEALTH_PORT: '0', ...extra }));
      localPoller = await startPoller(config, pino({ level: config.logLevel }), {
        shutdownHooks: false,
      });
      opened.unshift(localPoller);
    }
    return {
      sandbox,
      api,
      db,
      partner,
      get smtp() {
        return started(smtp, 'smtp: true');
      },
      get dashboard() {
        return started(dashboard, "dashboard: 'owner'");
      },
      get poller() {
        return started(poller, 'poller: true');
      },
      get localPoller() {
        return started(localPoller, 'localPoller: true');
      },
      newPartner: (partnerOptions) => createPartner(api.app, partnerOptions),
      get: (path, who = partner) =>
        request(api.url).get(path).set('Authorization', who.authorization),
      post: (path, body, who = partner) =>
        request(api.url).post(path).set('Authorization', who.authorization).send(body),
      close: () => closeAll(opened),
    };
  } catch (error) {
    await closeAll(opened);
    throw error;
  }
}

/** Closes the newest first (the api before the sandbox it calls), every one even if one fails. */
async function closeAll(opened: { close(): Promise<void> }[]): Promise<void> {
  let failure: Error | null = null;
  for (const resource of opened) {
    try {
      await resource.close();
    } catch (error) {
      failure ??= error instanceof Error ? error : new Error(String(error));
    }
  }
  if (failure) {
    throw failure;
  }
}
