import type pg from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';

/**
 * Named prepared statements for the hottest reads, on a connection of the data source's own pool
 * taken through the Postgres driver's public `obtainMasterConnection`: each connection parses and
 * plans a statement once, and a read skips TypeORM's query runner (one acquisition, one round
 * trip, the pool's timeouts and read-timeout client unchanged). Rows come back exactly as
 * `DataSource.query` returns them.
 */
export class PreparedReads {
  private readonly driver: PostgresDriver;

  constructor(dataSource: DataSource) {
    if (dataSource.options.type !== 'postgres') {
      throw new Error('prepared reads need the Postgres driver');
    }
    this.driver = dataSource.driver as PostgresDriver;
  }

  /** `name` must always come with the same `text`: Postgres keeps one plan per name. */
  async rows<T extends pg.QueryResultRow>(
    name: string,
    text: string,
    values: unknown[],
  ): Promise<T[]> {
    const [client, release] = (await this.driver.obtainMasterConnection()) as [
      pg.PoolClient,
      (error?: Error) => void,
    ];
    try {
      const result = await client.query<T>({ name, text, values });
      release();
      return result.rows;
    } catch (error) {
      // The pool drops a connection released with its error (a read timeout left it unusable).
      release(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
  }
}
