import { escapeHtml } from '@kitajs/html';

/**
 * One column: a header and either `text` (plain text, escaped here) or `cell` (markup built
 * with JSX, whose strings are escaped where they are written).
 */
export type Column<T> = { header: string } & (
  { text: (row: T) => string; cell?: never } | { cell: (row: T) => JSX.Element; text?: never }
);

/** A data table with a caption and column headers; `empty` when there are no rows. */
export function Table<T>({
  caption,
  columns,
  rows,
  empty,
}: {
  caption: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  empty: string;
}): JSX.Element {
  if (rows.length === 0) {
    return (
      <p class="muted" safe>
        {empty}
      </p>
    );
  }
  return (
    <table>
      <caption safe>{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col" safe>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr>
            {columns.map((column) => (
              <td>{column.text ? escapeHtml(column.text(row)) : column.cell(row)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
