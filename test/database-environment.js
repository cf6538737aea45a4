// Plain ESM, loaded by Jest outside its module mapper (like the global setup): the environment of
// every test file. An e2e file gets a database of its own, cloned from the run's migrated one
// before any of the file's modules load, so files run in parallel workers without sharing rows.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import NodeEnvironment from 'jest-environment-node';
import pg from 'pg';
import { adminDatabaseUrl } from './global-setup.js';

/** SQLSTATE 55006: the template has another session (autovacuum, a stray client) for a moment. */
const OBJECT_IN_USE = '55006';
const ATTEMPTS = 20;

async function onAdminDatabase(work) {
  const client = new pg.Client({ connectionString: adminDatabaseUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function cloneTemplate(template, database) {
  for (let attempt = 1; ; attempt++) {
    try {
      await onAdminDatabase((client) =>
        client.query(`CREATE DATABASE ${database} TEMPLATE ${template}`),
      );
      return;
    } catch (error) {
      if (error.code !== OBJECT_IN_USE || attempt === ATTEMPTS) {
        throw error;
      }
      await sleep(250 * attempt);
    }
  }
}

export default class DatabaseEnvironment extends NodeEnvironment {
  constructor(config, context) {
    super(config, context);
    this.wantsDatabase = context.testPath.endsWith('.e2e-spec.ts');
    this.database = undefined;
  }

  async setup() {
    await super.setup();
    const template = process.env.TEST_TEMPLATE_DATABASE;
    if (!this.wantsDatabase || !template) {
      return;
    }
    const database = `${template}_f${randomBytes(4).toString('hex')}`;
    await cloneTemplate(template, database);
    this.database = database;
    const url = new URL(adminDatabaseUrl());
    url.pathname = `/${database}`;
    this.global.process.env.TEST_DATABASE_URL = url.toString();
    this.global.process.env.TEST_DATABASE_NAME = database;
  }

  /**
   * Drops the file's database once its suites have closed their connections. One a file left
   * open keeps it (Postgres refuses after a few seconds): the global teardown drops it by force.
   */
  async teardown() {
    if (this.database) {
      const database = this.database;
      this.database = undefined;
      await onAdminDatabase((client) => client.query(`DROP DATABASE IF EXISTS ${database}`)).catch(
        () => undefined,
      );
    }
    await super.teardown();
  }
}
