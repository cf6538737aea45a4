import type { EntityManager } from 'typeorm';

/**
 * What runs a repository's plain SQL: the data source, or the manager of the caller's
 * transaction when one change spans two aggregates.
 */
export type SqlRunner = Pick<EntityManager, 'query'>;

/** The rows of a plain query: `UPDATE`/`DELETE … RETURNING` answer `[rows, count]` through TypeORM's postgres driver. */
export function rowsOf<T>(result: [T[], number] | T[]): T[] {
  return Array.isArray(result[0]) ? (result as [T[], number])[0] : (result as T[]);
}

/**
 * The rows one parametrised statement answers (`$1`, `$2`, … bound to `values`), a `SELECT` or
 * a write `… RETURNING` alike.
 */
export async function queryRows<T>(
  runner: SqlRunner,
  text: string,
  values: readonly unknown[] = [],
): Promise<T[]> {
  return rowsOf<T>(await runner.query<[T[], number] | T[]>(text, [...values]));
}

/** How many rows an `UPDATE` or `DELETE` changed, without reading them back. */
export async function changedRows(
  runner: SqlRunner,
  text: string,
  values: readonly unknown[] = [],
): Promise<number> {
  const [, count] = await runner.query<[unknown[], number]>(text, [...values]);
  return count;
}
