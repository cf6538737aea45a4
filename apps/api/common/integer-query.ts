/**
 * A query parameter read as an integer only when it is written as one (`-?[0-9]+`): anything else
 * (`""`, `1e2`, `0x10`, `1.0`) is left as text for `IsInt` to refuse. `Number()` alone would read
 * `""` as 0 and `1e2` as 100, which the document's `type: integer` does not promise.
 */
export function toInteger({ value }: { value: unknown }): unknown {
  return typeof value === 'string' && /^-?[0-9]+$/.test(value) ? Number(value) : value;
}
