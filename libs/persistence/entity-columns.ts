import type { DataSource, ObjectLiteral } from 'typeorm';

/** How `EntityColumns.select` writes a column's value. */
export interface SelectOptions {
  /** Timestamps as text exactly as `Date.toISOString` writes them, not as `Date`s. */
  iso?: boolean;
}

/** `Date.toISOString`'s form in Postgres: UTC, milliseconds truncated as a `Date` truncates them. */
const ISO_FORMAT = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * An entity's columns for repositories that write plain SQL: the select/insert list, the values
 * of an entity in that order, and rows mapped back through TypeORM's own metadata, so plain SQL
 * and the entity definition cannot drift apart.
 */
export class EntityColumns<T extends ObjectLiteral> {
  private readonly columns: { property: keyof T & string; column: string; timestamp: boolean }[];
  /** `"col_a", "col_b", …` in entity order. */
  readonly list: string;

  constructor(
    dataSource: DataSource,
    private readonly entity: new () => T,
  ) {
    this.columns = dataSource.getMetadata(entity).columns.map((c) => ({
      property: c.propertyName,
      column: c.databaseName,
      timestamp: c.type === 'timestamptz' || c.type === 'timestamp' || c.type === Date,
    }));
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
    return this.columns.map(({ property }) => entity[property]);
  }

  toEntity(row: Record<string, unknown>): T {
    const entity = new this.entity();
    const target = entity as Record<string, unknown>;
    for (const { property, column } of this.columns) {
      target[property] = row[column];
    }
    return entity;
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
    const chosen = properties ? properties.map((property) => this.column(property)) : this.columns;
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
    return Object.assign(new this.entity(), row);
  }

  private column(property: keyof T & string): EntityColumns<T>['columns'][number] {
    const found = this.columns.find((c) => c.property === property);
    if (!found) {
      throw new Error(`${this.entity.name} has no column for ${property}`);
    }
    return found;
  }
}
