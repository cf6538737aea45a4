import { isDecimalString } from '#app/domain';

/**
 * Upstream answers mix Unix seconds, milliseconds, microseconds and ISO strings (docs/decisions.md,
 * "The provider's wire protocol"); everything leaves the adapter as ISO 8601. Epoch numbers are
 * told apart by magnitude: seconds stay below 1e11 until the year 5138, microseconds exceed 1e14
 * since 1973.
 */
export function toIsoTimestamp(value: unknown): string | null {
  if (value === null || value === undefined || value === '' || value === 0 || value === '0') {
    return null;
  }
  if (typeof value === 'number' || isDecimalString(value)) {
    const n = Number(value);
    const ms = n >= 1e14 ? n / 1000 : n >= 1e11 ? n : n * 1000;
    return new Date(Math.floor(ms)).toISOString();
  }
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    if (!Number.isNaN(ms)) {
      return new Date(ms).toISOString();
    }
  }
  throw new TypeError(`not a timestamp: ${JSON.stringify(value)}`);
}
