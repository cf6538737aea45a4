import type pg from 'pg';
import type { DataSource } from 'typeorm';
import { masterConnection, postgresDriver, type PostgresPoolDriver } from './prepared-reads.js';

/** Postgres may end an export whose reader stalls this long between batches. */
const EXPORT_IDLE_TIMEOUT = '60s';

/**
 * How a cursor's transaction is opened: one snapshot, read-only, and the planner told that the
 * first rows matter (`cursor_tuple_fraction`, pinned here rather than left to the server's
 * setting): a large export then streams from an index in its order instead of sorting every row
 * before the first is sent. A test plans each export this way over seeded data.
 */
export const CURSOR_TRANSACTION = [
  'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
  `SET LOCAL idle_in_transaction_session_timeout = '${EXPORT_IDLE_TIMEOUT}'`,
  'SET LOCAL cursor_tuple_fraction = 0.1',
];

/** The cursor `CursorReads` reads `text` through. */
export function cursorDeclaration(text: string): string {
  return `DECLARE export_cursor NO SCROLL CURSOR FOR ${text}`;
}

/**
 * Reads a large result in batches through a server-side cursor, so a caller that streams it
 * (a CSV export) holds one batch in memory however many rows there are. One pooled connection
 * is held for the whole read, inside a read-only repeatable-read transaction: every batch comes
 * from one snapshot. Each `FETCH` is its own statement, so the pool's statement timeout bounds
 * one batch, not the export; the idle-in-transaction limit is raised for this transaction only,
 * as a slow downloader leaves it idle between batches.
 */
export class CursorReads {
  private readonly driver: PostgresPoolDriver;

  constructor(dataSource: DataSource) {
    this.driver = postgresDriver(dataSource);
  }

  /**
   * Batches of up to `batchSize` rows of `text`. Stopping early (`return` on the generator, as a
   * closed download does) ends the transaction and gives the connection back; a connection left
   * in an unknown state is destroyed rather than returned to the pool.
   */
  async *batches<T extends pg.QueryResultRow>(
    text: string,
    values: unknown[],
    batchSize: number,
  ): AsyncGenerator<T[], void, undefined> {
    const [client, release] = await masterConnection(this.driver);
    let ended = false;
    try {
      for (const statement of CURSOR_TRANSACTION) {
        await client.query(statement);
      }
      await client.query(cursorDeclaration(text), values);
      for (;;) {
        const { rows } = await client.query<T>(`FETCH ${batchSize} FROM export_cursor`);
        if (rows.length > 0) {
          yield rows;
        }
        if (rows.length < batchSize) {
          break;
        }
      }
      await client.query('COMMIT');
      ended = true;
    } finally {
      // Stopped early or failed: the transaction may still be open.
      if (!ended) {
        ended = await rolledBack(client);
      }
      // An error destroys a connection whose state is unknown instead of pooling it.
      release(ended ? undefined : new Error('export cursor left in an unknown state'));
    }
  }
}

/** Whether the connection is clean again (a failed rollback means it is not). */
async function rolledBack(client: pg.PoolClient): Promise<boolean> {
  try {
    await client.query('ROLLBACK');
    return true;
  } catch {
    return false;
  }
}
