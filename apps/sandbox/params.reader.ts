import { Decimal } from 'decimal.js';
import { isDecimalString, isProviderStatus, type ProviderStatus, type SwapMode } from '#app/domain';
import { validateAddress } from '#app/chains';
import { listedBy, type SandboxCurrency } from './catalogue.js';
import { amountAboveMax, amountBelowMin, INVALID_PARAMS, RpcFailure } from './rpc-failure.js';
import type { TransactionsQuery } from './transaction.book.js';

type Params = Record<string, unknown>;

/** The amounts a pair accepts in one mode. */
export interface AmountRange {
  min: Decimal;
  max: Decimal;
}

const CURRENCIES = new Map(listedBy('changelly').map((c) => [c.ticker, c]));
const MAX_IDS = 10;
const MAX_USER_METADATA = 1024;

function isObject(value: unknown): value is Params {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Number of ids a getTransactions call asks for, for the stats; null for other shapes. */
export function idsRequested(params: unknown): number | null {
  if (!isObject(params)) {
    return null;
  }
  const id = params.id;
  return Array.isArray(id) ? id.length : typeof id === 'string' ? 1 : null;
}

/** The offset of a getTransactions call that lists (asks for no ids), for the stats; else null. */
export function listingOffset(params: unknown): number | null {
  if (!isObject(params) || params.id !== undefined) {
    return null;
  }
  return typeof params.offset === 'number' ? params.offset : 0;
}

/**
 * Reads the params of one JSON-RPC call. Each getter validates one field and throws the error
 * upstream answers for it, so the order of the calls decides which error a bad call gets.
 */
export class ParamsReader {
  private constructor(private readonly params: Params) {}

  static object(value: unknown): ParamsReader {
    if (!isObject(value)) {
      throw new RpcFailure(INVALID_PARAMS, 'Invalid params: an object is expected');
    }
    return new ParamsReader(value);
  }

  /** The quote methods take one object or an array of them. */
  static items(value: unknown): ParamsReader[] {
    const list = Array.isArray(value) ? (value as unknown[]) : [value];
    return list.map((item) => ParamsReader.object(item));
  }

  /** A non-empty string, or undefined. */
  text(key: string): string | undefined {
    const value = this.params[key];
    return typeof value === 'string' && value !== '' ? value : undefined;
  }

  /** A listed currency, by ticker in any case. */
  currency(key: string): SandboxCurrency {
    const value = this.params[key];
    const currency = typeof value === 'string' ? CURRENCIES.get(value.toLowerCase()) : undefined;
    if (!currency) {
      throw new RpcFailure(INVALID_PARAMS, `Invalid currency: ${String(value)} is not supported`);
    }
    return currency;
  }

  /** `from` and `to`, a pair the catalogue offers in `mode`. */
  pair(mode: SwapMode): [SandboxCurrency, SandboxCurrency] {
    const from = this.currency('from');
    const to = this.currency('to');
    const usable =
      from !== to &&
      from.enabled &&
      to.enabled &&
      from.enabledFrom &&
      to.enabledTo &&
      (mode === 'float' || (from.fixRateEnabled && to.fixRateEnabled));
    if (!usable) {
      throw new RpcFailure(
        INVALID_PARAMS,
        `Invalid currency pair: ${from.ticker} to ${to.ticker} is not available`,
      );
    }
    return [from, to];
  }

  /** `amountFrom` in `currency`'s precision and, when given, within `range`. */
  amountFrom(currency: SandboxCurrency, range?: AmountRange): Decimal {
    const value = this.params.amountFrom;
    if (!isDecimalString(value) || new Decimal(value).lte(0)) {
      throw new RpcFailure(
        INVALID_PARAMS,
        'Invalid amount: amountFrom must be a positive decimal string',
      );
    }
    const amount = new Decimal(value);
    if (amount.decimalPlaces() > currency.precision) {
      throw new RpcFailure(
        INVALID_PARAMS,
        `Invalid amount: ${currency.ticker} takes at most ${currency.precision} decimal places`,
      );
    }
    if (range && amount.lt(range.min)) {
      throw amountBelowMin(range.min);
    }
    if (range && amount.gt(range.max)) {
      throw amountAboveMax(range.max);
    }
    return amount;
  }

  /** `address`, where `to` is paid out. */
  payoutAddress(to: SandboxCurrency): string {
    return this.address('address', to, 'Invalid address');
  }

  /** `refundAddress`, where `from` goes back; fixed swaps require it. */
  refundAddress(from: SandboxCurrency): string {
    return this.address('refundAddress', from, 'Invalid refund address');
  }

  optionalRefundAddress(from: SandboxCurrency): string | null {
    return this.text('refundAddress') === undefined ? null : this.refundAddress(from);
  }

  /**
   * `getTransactions`: `id` (one or up to 10), `payoutAddress`, `status` (one or several),
   * `since` (Unix microseconds, `createdAt >= since`), `limit` [10, at most 100] and `offset` [0].
   */
  transactionsQuery(): TransactionsQuery {
    const ids = this.ids();
    const statuses = this.statuses();
    const since = this.integer('since', -1, 0, Number.MAX_SAFE_INTEGER);
    const limit = this.integer('limit', 10, 1, 100);
    const offset = this.integer('offset', 0, 0, Number.MAX_SAFE_INTEGER);
    return {
      provider: 'changelly',
      ids,
      payoutAddress: this.text('payoutAddress') ?? null,
      statuses,
      sinceMs: since < 0 ? null : Math.floor(since / 1000),
      untilMs: null,
      limit,
      offset,
    };
  }

  /** `userMetadata`: the partner's own note, kept as given. */
  userMetadata(): string | null {
    const value = this.params.userMetadata;
    if (value === undefined || value === null) {
      return null;
    }
    if (typeof value !== 'string' || value.length > MAX_USER_METADATA) {
      throw new RpcFailure(
        INVALID_PARAMS,
        `Invalid parameter userMetadata: a string of at most ${MAX_USER_METADATA} characters is expected`,
      );
    }
    return value;
  }

  private address(key: string, currency: SandboxCurrency, message: string): string {
    const address = this.text(key);
    if (address === undefined || !validateAddress(currency.blockchain, address).valid) {
      throw new RpcFailure(INVALID_PARAMS, message);
    }
    return address;
  }

  private statuses(): ProviderStatus[] | null {
    const value = this.params.status;
    if (value === undefined || value === null) {
      return null;
    }
    const statuses = typeof value === 'string' ? [value] : value;
    if (
      !Array.isArray(statuses) ||
      statuses.some((status) => typeof status !== 'string' || !isProviderStatus(status))
    ) {
      throw new RpcFailure(
        INVALID_PARAMS,
        'Invalid parameter status: a status or an array of statuses is expected',
      );
    }
    return statuses as ProviderStatus[];
  }

  private ids(): string[] | null {
    const value = this.params.id;
    if (value === undefined || value === null) {
      return null;
    }
    const ids = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) {
      throw new RpcFailure(
        INVALID_PARAMS,
        'Invalid parameter id: a string or an array of strings is expected',
      );
    }
    if (ids.length > MAX_IDS) {
      throw new RpcFailure(INVALID_PARAMS, `Invalid parameter id: at most ${MAX_IDS} ids per call`);
    }
    return ids as string[];
  }

  private integer(key: string, fallback: number, min: number, max: number): number {
    const value = this.params[key];
    if (value === undefined || value === null) {
      return fallback;
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw new RpcFailure(
        INVALID_PARAMS,
        `Invalid parameter ${key}: an integer from ${min} to ${max} is expected`,
      );
    }
    return value;
  }
}
