import request from 'supertest';
import type { DataSource } from 'typeorm';
import type { SandboxConfig } from '#app/config';
import { createPartner, type PartnerOptions, type TestPartner } from '../factories/partners.js';
import { startTestApi, type TestApi } from './api.js';
import { openTestDataSource, truncateAll } from './database.js';
import { startTestSandbox, type TestSandbox } from './sandbox.js';

export interface HarnessOptions {
  /** The sandbox's settings (lifecycle step length, seed…). */
  sandbox?: Partial<SandboxConfig>;
  /** Environment of the api beyond the test defaults; the sandbox is its live and test provider. */
  api?: Record<string, string | undefined>;
  /** The ready partner's organization and credential (active, fee 1 %, live unless asked). */
  partner?: PartnerOptions;
}

/**
 * What most end-to-end suites start from: empty tables, a sandbox provider over HTTP, the api in
 * this process against the run's database and Redis, a connection to inspect the database, and an
 * active partner with a credential. `close()` stops all of it; call it in `afterAll`.
 */
export interface Harness {
  sandbox: TestSandbox;
  api: TestApi;
  db: DataSource;
  partner: TestPartner;
  /** Another organization (or another credential's budget) in one line. */
  newPartner(options?: PartnerOptions): Promise<TestPartner>;
  /** A request as `who` (the ready partner by default) would send it, authorization set. */
  get(path: string, who?: TestPartner): request.Test;
  post(path: string, body: object, who?: TestPartner): request.Test;
  close(): Promise<void>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  await truncateAll();
  const sandbox = await startTestSandbox(options.sandbox);
  const opened: { close(): Promise<void> }[] = [sandbox];
  try {
    const api = await startTestApi({
      PROVIDER_URL: sandbox.url,
      TEST_PROVIDER_URL: sandbox.url,
      ...options.api,
    });
    opened.unshift(api);
    const db = await openTestDataSource();
    opened.unshift({ close: () => db.destroy() });
    const partner = await createPartner(api.app, options.partner);
    return {
      sandbox,
      api,
      db,
      partner,
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
