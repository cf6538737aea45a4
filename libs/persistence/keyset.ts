/**
 * Keyset pagination over a list ordered newest first by `created_at`, then by `id` (both
 * descending): a page starts strictly after (or ends strictly before) a row's position, so
 * pages stay stable while new rows arrive and cost the same at any depth.
 */
export interface KeysetPosition {
  /** `created_at` in UTC with its microseconds, as `keysetAtSql` selects it. */
  at: string;
  id: string;
}

/** One page request: at most one of `after` (older rows) and `before` (newer rows). */
export interface KeysetPageRequest {
  limit: number;
  after?: KeysetPosition;
  before?: KeysetPosition;
}

export interface KeysetPage<T> {
  items: T[];
  /** The token of the next (older) page; null on the last page. */
  next: string | null;
  /** The token of the previous (newer) page; null on the first page. */
  previous: string | null;
}

/** Microseconds matter: two rows of one millisecond must not share a position. */
const AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
/** Far above any real token: a longer value is refused before it is decoded. */
const MAX_TOKEN_LENGTH = 200;
const TOKEN = /^[A-Za-z0-9_-]+$/;

/** The column expression a keyset position's `at` is selected with. */
export function keysetAtSql(alias: string): string {
  return `to_char(${alias}.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** An opaque, URL-safe token of a position. */
export function encodeKeyset(position: KeysetPosition): string {
  return Buffer.from(`${position.at}|${position.id}`, 'utf8').toString('base64url');
}

/** The position a token names, or null when it is not one this service wrote for `idPattern`. */
export function decodeKeyset(token: string, idPattern: RegExp): KeysetPosition | null {
  if (token.length > MAX_TOKEN_LENGTH || !TOKEN.test(token)) {
    return null;
  }
  const [at, id, ...rest] = Buffer.from(token, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || at === undefined || id === undefined) {
    return null;
  }
  if (!AT.test(at) || Number.isNaN(Date.parse(at)) || !idPattern.test(id)) {
    return null;
  }
  return { at, id };
}

/**
 * The SQL of one page over rows aliased `alias`: the position condition (appended to the
 * caller's conditions, its parameters numbered from `first`) and the order. A page before a
 * position is read oldest first and must be reversed by `keysetPage`.
 */
export function keysetClauses(
  alias: string,
  page: KeysetPageRequest,
  first: number,
): { condition: string | null; values: unknown[]; order: string } {
  const position = page.after ?? page.before;
  const backwards = page.after === undefined && page.before !== undefined;
  const direction = backwards ? 'ASC' : 'DESC';
  return {
    condition: position
      ? `(${alias}.created_at, ${alias}.id) ${backwards ? '>' : '<'} ($${first}::timestamptz, $${first + 1})`
      : null,
    values: position ? [position.at, position.id] : [],
    order: `ORDER BY ${alias}.created_at ${direction}, ${alias}.id ${direction}`,
  };
}

/**
 * A page from up to `limit + 1` rows read as `keysetClauses` ordered them; `positionOf` gives a
 * row's position. The extra row only tells whether more rows lie beyond.
 */
export function keysetPage<T>(
  rows: T[],
  page: KeysetPageRequest,
  positionOf: (row: T) => KeysetPosition,
): KeysetPage<T> {
  const backwards = page.after === undefined && page.before !== undefined;
  const more = rows.length > page.limit;
  const items = rows.slice(0, page.limit);
  if (backwards) {
    items.reverse();
  }
  const first = items[0];
  const last = items[items.length - 1];
  const hasNewer = backwards ? more : page.after !== undefined;
  const hasOlder = backwards ? true : more;
  return {
    items,
    next: hasOlder && last ? encodeKeyset(positionOf(last)) : null,
    previous: hasNewer && first ? encodeKeyset(positionOf(first)) : null,
  };
}
