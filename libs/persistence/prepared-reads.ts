import type pg from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';

/** The Postgres driver of a data source, whose pool prepared and cursor reads share. */
export type PostgresPoolDriver = Pick<PostgresDriver, 'obtainMasterConnection'>;

/** Pool release: with an error the pool drops the connection instead of keeping it. */
export type ReleaseConnection = (error?: Error) => void;

export function postgresDriver(dataSource: DataSource): PostgresPoolDriver {
  if (dataSource.options.type !== 'postgres') {
    throw new Error('prepared and cursor reads need the Postgres driver');
  }
  return dataSource.driver;
}

/**
 * A connection of the data source's own pool (its timeouts and read-timeout client), through
 * the driver's public `obtainMasterConnection`, never its private pool field.
 */
export async function masterConnection(
  driver: PostgresPoolDriver,
): Promise<[pg.PoolClient, ReleaseConnection]> {
  return (await driver.obtainMasterConnection()) as [pg.PoolClient, ReleaseConnection];
}

/**
 * The name of each shaped statement's text, for the process: a name always stands for one text
 * on every connection. Shapes are few (a combination of the filters a caller may give), so this
 * stays small.
 */
const SHAPE_NAMES = new Map<string, string>();

/**
 * Named prepared statements for the hottest reads, on a connection of the data source's own
 * pool: each connection parses and plans a statement once, and a read skips TypeORM's query
 * runner (one acquisition, one round trip, the pool's timeouts and read-timeout client
 * unchanged). Rows come back exactly as `DataSource.query` returns them.
 */
export class PreparedReads {
  private readonly driver: PostgresPoolDriver;

  constructor(dataSource: DataSource) {
    this.driver = postgresDriver(dataSource);
  }

  /**
   * A statement built from one of a few shapes (the filters given, the page's direction), named
   * after its text: each shape is parsed and planned once per connection, like a named read.
   */
  async shaped<T extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<T[]> {
    let name = SHAPE_NAMES.get(text);
    if (name === undefined) {
      name = `shape-${SHAPE_NAMES.size}`;
      SHAPE_NAMES.set(text, name);
    }
    return this.rows<T>(name, text, values);
  }

  /** `name` must always come with the same `text`: Postgres keeps one plan per name. */
  async rows<T extends pg.QueryResultRow>(
    name: string,
    text: string,
    values: unknown[],
  ): Promise<T[]> {
    const [client, release] = await masterConnection(this.driver);
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
