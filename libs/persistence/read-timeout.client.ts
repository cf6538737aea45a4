import pg from 'pg';

/** What pg rejects a query with when its `query_timeout` passes without an answer. */
const READ_TIMEOUT = 'Query read timeout';

/**
 * A pg client that closes itself once a query goes unanswered past `query_timeout`.
 *
 * pg rejects such a query but keeps the connection, the query still in flight on it, and the pool
 * hands it out again: every later query on it waits behind one that may never be answered.
 * Postgres cancels a slow statement itself a second earlier (`statement_timeout`), so silence past
 * the read timeout means the connection, not the statement, is lost. Ending the client makes the
 * pool drop it, and with a query in flight pg destroys the socket rather than wait for it.
 * TypeORM asks with promises; that is the form watched.
 */
export class ReadTimeoutClient extends pg.Client {
  // pg's overloads differ in arguments and result; every call passes through unchanged.
  override query(...args: never[]): never {
    const result: unknown = super.query.apply(this, args as never);
    if (result instanceof Promise) {
      void result.catch((error: unknown) => {
        if (error instanceof Error && error.message === READ_TIMEOUT) {
          void this.end();
        }
      });
    }
    return result as never;
  }
}
