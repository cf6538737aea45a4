import { queryRows, type SqlRunner } from './query-rows.js';

/**
 * One statement built of steps (`WITH name AS (INSERT/UPDATE … RETURNING …)`), each written by
 * the repository of its table, so a change that spans several tables (a page of swaps written
 * back, their events, the webhook outbox, the poller's bookkeeping) is one round trip that
 * commits whole or not at all. A step reads an earlier step's `RETURNING` by its name; every
 * step runs once, whether the final query reads it or not.
 */
export class BatchStatement {
  private readonly steps: string[] = [];
  private readonly values: unknown[] = [];

  /** The placeholder of a new parameter bound to `value`. */
  param(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** Adds `name AS (sql)` and answers `name`, for later steps and the final query to read. */
  step(name: string, sql: string): string {
    this.steps.push(`${name} AS (${sql})`);
    return name;
  }

  get empty(): boolean {
    return this.steps.length === 0;
  }

  /** Runs every step, then `result` (which may read any step), as one statement. */
  run<T>(runner: SqlRunner, result: string): Promise<T[]> {
    return queryRows<T>(runner, `WITH ${this.steps.join(',\n')}\n${result}`, this.values);
  }
}
