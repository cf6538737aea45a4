import { Decimal } from 'decimal.js';
import { toIsoTimestamp } from './time.js';

/** Reads an untrusted upstream object; a missing or mistyped field throws (→ bad response). */
export class WireReader {
  private readonly record: Record<string, unknown>;

  constructor(
    value: unknown,
    private readonly what: string,
  ) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new TypeError(`${what} is not an object`);
    }
    this.record = value as Record<string, unknown>;
  }

  static array(value: unknown, what: string): unknown[] {
    if (!Array.isArray(value)) {
      throw new TypeError(`${what} is not an array`);
    }
    return value;
  }

  /** A field as it is, for a reader of its own. */
  field(key: string): unknown {
    return this.record[key];
  }

  /** A nested object, or null when absent. */
  optionalObject(key: string): WireReader | null {
    const value = this.record[key];
    return value === null || value === undefined
      ? null
      : new WireReader(value, `${this.what}.${key}`);
  }

  string(key: string): string {
    const value = this.record[key];
    if (typeof value !== 'string' || value === '') {
      throw new TypeError(`${this.what}.${key} is not a string`);
    }
    return value;
  }

  optionalString(key: string): string | null {
    const value = this.record[key];
    return value === null || value === undefined || value === '' ? null : this.string(key);
  }

  boolean(key: string): boolean {
    const value = this.record[key];
    if (typeof value !== 'boolean') {
      throw new TypeError(`${this.what}.${key} is not a boolean`);
    }
    return value;
  }

  integer(key: string): number {
    const value = this.record[key];
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      throw new TypeError(`${this.what}.${key} is not an integer`);
    }
    return value;
  }

  /** A decimal string in plain notation, whether upstream sent a string or a number. */
  decimal(key: string): string {
    const value = this.record[key];
    if ((typeof value !== 'string' && typeof value !== 'number') || value === '') {
      throw new TypeError(`${this.what}.${key} is not a decimal`);
    }
    let parsed: Decimal;
    try {
      parsed = new Decimal(value);
    } catch {
      throw new TypeError(`${this.what}.${key} is not a decimal`);
    }
    if (!parsed.isFinite()) {
      throw new TypeError(`${this.what}.${key} is not finite`);
    }
    return parsed.toFixed();
  }

  optionalDecimal(key: string): string | null {
    const value = this.record[key];
    return value === null || value === undefined || value === '' ? null : this.decimal(key);
  }

  timestamp(key: string): string {
    const value = this.optionalTimestamp(key);
    if (value === null) {
      throw new TypeError(`${this.what}.${key} is missing`);
    }
    return value;
  }

  optionalTimestamp(key: string): string | null {
    return toIsoTimestamp(this.record[key]);
  }
}
