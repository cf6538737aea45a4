/** A value a CSV cell is written from; null and undefined are empty cells. */
export type CsvValue = string | number | boolean | null | undefined;

/** What a spreadsheet may read as a formula: a cell starting so, leading spaces aside. */
const FORMULA_START = /^[\s]*[=+\-@]|^[\t\r]/;
/** A plain decimal number (a negative anomaly percentage) is never a formula. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
/** Characters that force quoting (RFC 4180), plus edge spaces a reader might trim. */
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/**
 * One CSV cell (RFC 4180): text that a spreadsheet would run as a formula gets a leading `'`
 * (OWASP's advice against CSV injection), then the cell is quoted, its quotes doubled, when it
 * holds a comma, quote, line break or edge space.
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) {
    return '';
  }
  let text = String(value);
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) {
    text = `'${text}`;
  }
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record with its CRLF line end (RFC 4180). */
export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
