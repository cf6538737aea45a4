import type { DataSource, ObjectLiteral } from 'typeorm';

/**
 * An entity's columns for repositories that write plain SQL: the select/insert list, the values
 * of an entity in that order, and rows mapped back through TypeORM's own metadata, so plain SQL
 * and the entity definition cannot drift apart.
 */
export class EntityColumns<T extends ObjectLiteral> {
  private readonly columns: { property: keyof T & string; column: string }[];
  /** `"col_a", "col_b", …` in entity order. */
  readonly list: string;

  constructor(
    dataSource: DataSource,
    private readonly entity: new () => T,
  ) {
    this.columns = dataSource.getMetadata(entity).columns.map((c) => ({
      property: c.propertyName,
      column: c.databaseName,
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
}
