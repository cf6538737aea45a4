import type pg from 'pg';
import type { DataSource } from 'typeorm';

/**
 * Named prepared statements on the data source's own `pg` pool, for the hottest reads: each
 * connection parses and plans a statement once, and a read skips TypeORM's query runner (one
 * acquisition, one round trip, the pool's timeouts and read-timeout client unchanged). Rows come
 * back exactly as `DataSource.query` returns them.
 */
export class PreparedReads {
  constructor(private readonly dataSource: DataSource) {}

  /** `name` must always come with the same `text`: Postgres keeps one plan per name. */
  async rows<T extends pg.QueryResultRow>(
    name: string,
    text: string,
    values: unknown[],
  ): Promise<T[]> {
    const pool = (this.dataSource.driver as unknown as { master: pg.Pool }).master;
    return (await pool.query<T>({ name, text, values })).rows;
  }
}
