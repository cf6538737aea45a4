import { isSwapStatus, type SwapStatus } from '#app/domain';
import { isPlainText } from '#app/input';
import { decodeKeyset, type KeysetPageRequest } from '#app/persistence';
import { CURRENT_SWAP_ID, LEGACY_SWAP_ID } from './swap-id.js';

/**
 * What narrows an organization's swaps on the dashboard, every field optional. Dates are whole
 * UTC days, both ends included.
 */
export interface SwapFilters {
  status?: SwapStatus;
  /** Canonical tickers, lowercase. */
  from?: string;
  to?: string;
  /** `YYYY-MM-DD`: created on or after this day. */
  createdFrom?: string;
  /** `YYYY-MM-DD`: created on or before this day. */
  createdTo?: string;
  /**
   * Matches a swap's id or `partnerReferenceId` exactly, or its payin or payout address in any
   * letter case (addresses are pasted, and EIP-55 or bech32 case carries no identity).
   */
  search?: string;
  /** The partner's own reference, exactly (the API's list filter). */
  partnerReferenceId?: string;
}

/** A field of the query that was not understood, with a message fit for a form. */
export interface FilterError {
  param: string;
  message: string;
}

/** Filters and page as read from a query; a field in `errors` was left out of both. */
export interface ParsedSwapQuery {
  filters: SwapFilters;
  page: KeysetPageRequest;
  errors: FilterError[];
}

export const SWAP_PAGE_SIZE = 50;
const TICKER = /^[a-z0-9]{1,32}$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** The longest value any searched column holds (an address). */
const MAX_SEARCH_LENGTH = 256;
export const SWAP_KEYSET_ID = new RegExp(`${CURRENT_SWAP_ID.source}|${LEGACY_SWAP_ID.source}`);

/** A single string parameter, trimmed; undefined when absent or empty; an error otherwise. */
function single(
  query: Record<string, unknown>,
  param: string,
  errors: FilterError[],
): string | undefined {
  const raw = query[param];
  if (raw === undefined) {
    return undefined;
  }
  if (typeof raw !== 'string') {
    errors.push({ param, message: `${param} must be given once, as text.` });
    return undefined;
  }
  const value = raw.trim();
  if (value === '') {
    return undefined;
  }
  if (!isPlainText(value)) {
    errors.push({ param, message: `${param} must not contain control characters.` });
    return undefined;
  }
  return value;
}

function day(value: string | undefined, param: string, errors: FilterError[]): string | undefined {
  if (value === undefined) {
    return undefined;
  }
  const match = DAY.exec(value);
  const [year, month, date] = match ? match.slice(1).map(Number) : [0, 0, 0];
  const parsed = new Date(Date.UTC(year, month - 1, date));
  const real =
    match !== null &&
    year >= 2000 &&
    year <= 9999 &&
    parsed.getUTCMonth() === month - 1 &&
    parsed.getUTCDate() === date;
  if (!real) {
    errors.push({ param, message: `${param} must be a date (YYYY-MM-DD).` });
    return undefined;
  }
  return value;
}

function ticker(
  value: string | undefined,
  param: string,
  errors: FilterError[],
): string | undefined {
  if (value === undefined) {
    return undefined;
  }
  const lower = value.toLowerCase();
  if (!TICKER.test(lower)) {
    errors.push({ param, message: `${param} must be a currency ticker.` });
    return undefined;
  }
  return lower;
}

/**
 * Reads the dashboard's swap filters and page position from a query string (`status`, `pair` as
 * `from:to`, or `from` and `to` apart, `createdFrom`, `createdTo`, `q`, `after` or `before`).
 * Nothing in a query is trusted: every field is checked, and one that is not understood is
 * reported and ignored, so the page still lists what the rest asks for.
 */
export function parseSwapQuery(query: Record<string, unknown>): ParsedSwapQuery {
  const errors: FilterError[] = [];
  const filters: SwapFilters = {};

  const status = single(query, 'status', errors);
  if (status !== undefined) {
    if (isSwapStatus(status)) {
      filters.status = status;
    } else {
      errors.push({ param: 'status', message: 'status must be one of the swap statuses.' });
    }
  }

  const pair = single(query, 'pair', errors);
  if (pair !== undefined) {
    const [from, to, ...rest] = pair.split(':');
    const before = errors.length;
    const fromTicker = ticker(from, 'pair', errors);
    const toTicker = ticker(to, 'pair', errors);
    if (rest.length > 0 || to === undefined || errors.length > before) {
      errors.splice(before);
      errors.push({ param: 'pair', message: 'pair must be two tickers, as from:to.' });
    } else {
      filters.from = fromTicker;
      filters.to = toTicker;
    }
  } else {
    filters.from = ticker(single(query, 'from', errors), 'from', errors);
    filters.to = ticker(single(query, 'to', errors), 'to', errors);
  }

  filters.createdFrom = day(single(query, 'createdFrom', errors), 'createdFrom', errors);
  filters.createdTo = day(single(query, 'createdTo', errors), 'createdTo', errors);
  if (filters.createdFrom && filters.createdTo && filters.createdFrom > filters.createdTo) {
    errors.push({ param: 'createdTo', message: 'createdTo must not be before createdFrom.' });
    filters.createdTo = undefined;
  }

  const search = single(query, 'q', errors);
  if (search !== undefined) {
    if (search.length > MAX_SEARCH_LENGTH) {
      errors.push({ param: 'q', message: `q must be at most ${MAX_SEARCH_LENGTH} characters.` });
    } else {
      filters.search = search;
    }
  }

  const page: KeysetPageRequest = { limit: SWAP_PAGE_SIZE };
  for (const param of ['after', 'before'] as const) {
    const token = single(query, param, errors);
    if (token === undefined) {
      continue;
    }
    const position = decodeKeyset(token, SWAP_KEYSET_ID);
    if (position === null) {
      errors.push({ param, message: 'The page position is not valid; showing the first page.' });
    } else if (page.after === undefined && page.before === undefined) {
      page[param] = position;
    }
  }

  return { filters: withoutUndefined(filters), page, errors };
}

function withoutUndefined(filters: SwapFilters): SwapFilters {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined));
}

/** The query string that asks for `filters` again (for links to other pages and the export). */
export function swapFiltersQuery(filters: SwapFilters): Record<string, string> {
  const query: Record<string, string> = {};
  if (filters.status) {
    query.status = filters.status;
  }
  if (filters.from && filters.to) {
    query.pair = `${filters.from}:${filters.to}`;
  } else {
    if (filters.from) {
      query.from = filters.from;
    }
    if (filters.to) {
      query.to = filters.to;
    }
  }
  if (filters.createdFrom) {
    query.createdFrom = filters.createdFrom;
  }
  if (filters.createdTo) {
    query.createdTo = filters.createdTo;
  }
  if (filters.search) {
    query.q = filters.search;
  }
  return query;
}
