import type { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities/index.js';
import { MIGRATIONS } from './migrations/index.js';
import { ReadTimeoutClient } from './read-timeout.client.js';

/** How much later than Postgres's own cancellation the client stops waiting for an answer. */
const READ_TIMEOUT_MARGIN_MS = 1000;

/**
 * Migrations only, never `synchronize`.
 *
 * With `timeoutMs` (a serving process), Postgres cancels a statement that runs longer and ends a
 * session left idle in a transaction that long, releasing its locks; a client that has heard
 * nothing a second later gives up and drops the connection. Without it (migrations) statements
 * run as long as they need. TCP keepalive lets an idle pooled connection to a vanished server
 * fail on its own rather than at its next query.
 */
export function dataSourceOptions(
  url: string,
  poolSize = 20,
  timeoutMs?: number,
): DataSourceOptions {
  const timeouts =
    timeoutMs === undefined
      ? {}
      : {
          statement_timeout: timeoutMs,
          idle_in_transaction_session_timeout: timeoutMs,
          query_timeout: timeoutMs + READ_TIMEOUT_MARGIN_MS,
          Client: ReadTimeoutClient,
        };
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: {
      max: poolSize,
      connectionTimeoutMillis: 2000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10000,
      ...timeouts,
    },
  };
}
