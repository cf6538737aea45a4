import type { DataSource, ObjectLiteral, ValueTransformer } from 'typeorm';
import { queryRows, type SqlRunner } from './query-rows.js';

interface MappedColumn<T> {
  property: keyof T & string;
  column: string;
  timestamp: boolean;
  transformers: ValueTransformer[];
}

/** How `EntityColumns.select` writes a column's value. */
export interface SelectOptions {
  /** Timestamps as text exactly as `Date.toISOString` writes them, not as `Date`s. */
  iso?: boolean;
}

/** `Date.toISOString`'s form in Postgres: UTC, milliseconds truncated as a `Date` truncates them. */
const ISO_FORMAT = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * An entity's table for repositories, which all write plain SQL (docs/decisions.md, "One writer
 * per table, one query style per repository"): the select/insert list, the values of an entity
 * in that order, and rows mapped back through TypeORM's own metadata (column names and value
 * transformers), so plain SQL and the entity definition cannot drift apart.
 */
export class EntityColumns<T extends ObjectLiteral> {
  private readonly columns: MappedColumn<T>[];
  private readonly byProperty: Map<string, MappedColumn<T>>;
  /** `"col_a", "col_b", …` in entity order. */
  readonly list: string;
  private readonly table: string;

  constructor(
    dataSource: DataSource,
    private readonly entity: new () => T,
  ) {
    const metadata = dataSource.getMetadata(entity);
    this.table = metadata.tableName;
    this.columns = metadata.columns.map((c) => ({
      property: c.propertyName,
      column: c.databaseName,
      timestamp: c.type === 'timestamptz' || c.type === 'timestamp' || c.type === Date,
      transformers: c.transformer === undefined ? [] : [c.transformer].flat(),
    }));
    this.byProperty = new Map(this.columns.map((c) => [c.property, c]));
    this.list = this.columns.map((c) => `"${c.column}"`).join(', ');
  }

  get width(): number {
    return this.columns.length;
  }

  /** `$first, $first+1, …`, one per column. */
  placeholders(first = 1): string {
    return this.columns.map((_, i) => `$${first + i}`).join(', ');
  }

  values(entity: T): unknown[] {
    return this.columns.map((c) => toDatabase(c, entity[c.property]));
  }

  /**
   * The columns, placeholders (numbered from `first`) and values of the fields given (an
   * `undefined` field is left out), for an `INSERT` whose other columns take their defaults or
   * an `UPDATE … SET` (`assignments`).
   */
  fields(
    fields: Partial<T>,
    first = 1,
  ): { columns: string; placeholders: string; assignments: string; values: unknown[] } {
    const given = Object.entries<unknown>(fields)
      .filter(([, value]) => value !== undefined)
      .map(([property, value]) => ({ column: this.mapped(property), value }));
    const placeholder = (i: number) => `$${first + i}`;
    return {
      columns: given.map(({ column }) => `"${column.column}"`).join(', '),
      placeholders: given.map((_, i) => placeholder(i)).join(', '),
      assignments: given
        .map(({ column }, i) => `"${column.column}" = ${placeholder(i)}`)
        .join(', '),
      values: given.map(({ column, value }) => toDatabase(column, value)),
    };
  }

  toEntity(row: Record<string, unknown>): T {
    return this.entityOf((c) => row[c.column]);
  }

  /**
   * A select list of `properties` (every column by default) of the table aliased `alias`, each
   * column named as its property: a row comes back in the entity's own field names, whatever the
   * query around it, and `fromSelected` makes an entity of a row of every column.
   */
  select(
    alias: string,
    properties?: readonly (keyof T & string)[],
    options: SelectOptions = {},
  ): string {
    const chosen = properties ? properties.map((property) => this.mapped(property)) : this.columns;
    return chosen
      .map(({ property, column, timestamp }) =>
        timestamp && options.iso
          ? `to_char(${alias}."${column}" AT TIME ZONE 'UTC', ${ISO_FORMAT}) AS "${property}"`
          : `${alias}."${column}" AS "${property}"`,
      )
      .join(', ');
  }

  /** A row of `select(alias)` (every column) as the entity. */
  fromSelected(row: Record<string, unknown>): T {
    return this.entityOf((c) => row[c.property]);
  }

  private entityOf(valueOf: (column: MappedColumn<T>) => unknown): T {
    const entity = new this.entity();
    const target = entity as Record<string, unknown>;
    for (const c of this.columns) {
      target[c.property] = c.transformers.reduceRight<unknown>(
        (value, transformer) => transformer.from(value),
        valueOf(c),
      );
    }
    return entity;
  }

  /** The entities of a statement that selects (or returns) `list`. */
  async read(runner: SqlRunner, text: string, values: readonly unknown[] = []): Promise<T[]> {
    const rows = await queryRows<Record<string, unknown>>(runner, text, values);
    return rows.map((row) => this.toEntity(row));
  }

  /** The first entity of such a statement, or null when it answered none. */
  async readOne(
    runner: SqlRunner,
    text: string,
    values: readonly unknown[] = [],
  ): Promise<T | null> {
    const [first] = await this.read(runner, text, values);
    return first ?? null;
  }

  /** Inserts the fields given (the other columns take their defaults) and answers the row stored. */
  async insert(runner: SqlRunner, fields: Partial<T>): Promise<T> {
    const given = this.fields(fields);
    const [stored] = await this.read(
      runner,
      `INSERT INTO "${this.table}" (${given.columns}) VALUES (${given.placeholders})
       RETURNING ${this.list}`,
      given.values,
    );
    return stored;
  }

  private mapped(property: string): MappedColumn<T> {
    const column = this.byProperty.get(property);
    if (column === undefined) {
      throw new Error(`${this.entity.name} has no column ${property}`);
    }
    return column;
  }
}

function toDatabase<T>(column: MappedColumn<T>, value: unknown): unknown {
  return column.transformers.reduce<unknown>((v, transformer) => transformer.to(v), value);
}
