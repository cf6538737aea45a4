import { queryRows, type SqlRunner } from './query-rows.js';

/** What one column of a plain query holds; `?` after it: or null. A list: one of those words. */
type Kind = 'string' | 'number' | 'boolean' | 'date' | 'json';
export type ColumnRule = Kind | `${Kind}?` | readonly string[];

/** The columns a plain query answers, each with its rule. */
export type RowShape = Record<string, ColumnRule>;

type ValueOf<K> = K extends 'string'
  ? string
  : K extends 'number'
    ? number
    : K extends 'boolean'
      ? boolean
      : K extends 'date'
        ? Date
        : unknown;

type ColumnValue<R> = R extends readonly (infer Word)[]
  ? Word
  : R extends `${infer K}?`
    ? ValueOf<K> | null
    : ValueOf<R>;

/** The row a shape describes, typed from it. */
export type RowOf<S extends RowShape> = { [Column in keyof S]: ColumnValue<S[Column]> };

function holds(rule: ColumnRule, value: unknown): boolean {
  if (typeof rule !== 'string') {
    return typeof value === 'string' && rule.includes(value);
  }
  const nullable = rule.endsWith('?');
  if (value === null) {
    return nullable;
  }
  const kind = rule.replace('?', '') as Kind;
  switch (kind) {
    case 'date':
      return value instanceof Date && !Number.isNaN(value.getTime());
    case 'json':
      return value !== undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
    case 'string':
      return typeof value === kind;
  }
}

/** The column of `row` its shape refuses, described, or null when every column holds. */
function misfit(row: Record<string, unknown>, shape: RowShape): string | null {
  for (const [column, rule] of Object.entries(shape)) {
    if (!holds(rule, row[column])) {
      const seen = row[column] === null ? 'null' : typeof row[column];
      return `column ${column} holds ${seen}, expected ${JSON.stringify(rule)}`;
    }
  }
  return null;
}

/**
 * The rows of one parametrised statement, each checked against `shape` as it is read: a query
 * whose columns drift from what its caller expects (a renamed alias, a `bigint` read as text, a
 * nullable join) fails here, naming the column, instead of flowing on as a wrong type.
 */
export async function checkedRows<S extends RowShape>(
  runner: SqlRunner,
  shape: S,
  text: string,
  values: readonly unknown[] = [],
): Promise<RowOf<S>[]> {
  const rows = await queryRows<Record<string, unknown>>(runner, text, values);
  for (const row of rows) {
    const problem = misfit(row, shape);
    if (problem !== null) {
      throw new Error(`A row does not have the shape its query promises: ${problem}.`);
    }
  }
  return rows as RowOf<S>[];
}
