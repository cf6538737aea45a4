import { Decimal } from 'decimal.js';
import { isDecimalString } from '#app/domain';
import { validateAddress } from '#app/chains';
import {
  CHANGENOW_ERRORS,
  CHANGENOW_FLOWS,
  type ChangeNowFlow,
  type ChangeNowPayload,
} from '#app/provider';
import { listedBy, type SandboxCurrency } from './catalogue.js';
import {
  ChangeNowFailure,
  notValidParams,
  outOfRange,
  pairIsInactive,
} from './changenow-failure.js';
import type { AmountRange } from './params.reader.js';

const CURRENCIES = listedBy('changenow');
const PAYLOAD_FIELDS = 5;
const PAYLOAD_VALUE_LENGTH = 64;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The ChangeNOW-listed currency `ticker` on `network`. */
export function changeNowCurrency(ticker: string, network: string): SandboxCurrency | undefined {
  return CURRENCIES.find(
    (c) =>
      c.changenow.ticker === ticker.toLowerCase() && c.changenow.network === network.toLowerCase(),
  );
}

/**
 * Reads one ChangeNOW-style request: the query of a GET, the JSON body of a POST. Each getter
 * validates one field and throws the 4xx ChangeNOW answers for it.
 */
export class ChangeNowParams {
  private constructor(private readonly params: Record<string, unknown>) {}

  /** A query string's values; a repeated key counts by its first value. */
  static query(query: unknown): ChangeNowParams {
    const params: Record<string, unknown> = {};
    if (isObject(query)) {
      for (const [key, value] of Object.entries(query)) {
        const first: unknown = Array.isArray(value) ? value[0] : value;
        if (typeof first === 'string') {
          params[key] = first;
        }
      }
    }
    return new ChangeNowParams(params);
  }

  static body(body: Buffer): ChangeNowParams {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      throw notValidParams('The body is not JSON');
    }
    if (!isObject(parsed)) {
      throw notValidParams('The body must be a JSON object');
    }
    return new ChangeNowParams(parsed);
  }

  /** A non-empty string, or undefined. */
  text(key: string): string | undefined {
    const value = this.params[key];
    return typeof value === 'string' && value !== '' ? value : undefined;
  }

  required(key: string): string {
    const value = this.text(key);
    if (value === undefined) {
      throw notValidParams(`${key} is required`);
    }
    return value;
  }

  /** `flow` [standard]. */
  flow(): ChangeNowFlow {
    const flow = this.text('flow') ?? 'standard';
    if (!(CHANGENOW_FLOWS as readonly string[]).includes(flow)) {
      throw notValidParams(`flow must be one of ${CHANGENOW_FLOWS.join(', ')}`);
    }
    return flow as ChangeNowFlow;
  }

  /**
   * `fromCurrency`/`fromNetwork` and `toCurrency`/`toNetwork`: a pair ChangeNOW lists, both
   * active, the first one it sells and the second one it buys. It offers both flows on each.
   */
  pair(): [SandboxCurrency, SandboxCurrency] {
    const from = changeNowCurrency(this.required('fromCurrency'), this.required('fromNetwork'));
    const to = changeNowCurrency(this.required('toCurrency'), this.required('toNetwork'));
    const usable =
      from && to && from !== to && from.enabled && to.enabled && from.enabledFrom && to.enabledTo;
    if (!usable) {
      throw pairIsInactive();
    }
    return [from, to];
  }

  /** `fromAmount` (a decimal string or number) in `currency`'s decimals and, given, in `range`. */
  amount(currency: SandboxCurrency, range?: AmountRange): Decimal {
    const raw = this.params.fromAmount;
    const value = typeof raw === 'number' ? String(raw) : raw;
    if (!isDecimalString(value) || new Decimal(value).lte(0)) {
      throw notValidParams('fromAmount must be a positive decimal');
    }
    const amount = new Decimal(value);
    if (amount.decimalPlaces() > currency.precision) {
      throw notValidParams(
        `fromAmount: ${currency.changenow.ticker} takes at most ${currency.precision} decimal places`,
      );
    }
    if (range && amount.lt(range.min)) {
      throw outOfRange('min', range.min, currency);
    }
    if (range && amount.gt(range.max)) {
      throw outOfRange('max', range.max, currency);
    }
    return amount;
  }

  /** `address`, where `to` is paid out. */
  payoutAddress(to: SandboxCurrency): string {
    return this.address('address', to, 'Invalid address');
  }

  /** `refundAddress`, where `from` goes back; optional in both flows. */
  refundAddress(from: SandboxCurrency): string | null {
    return this.text('refundAddress') === undefined
      ? null
      : this.address('refundAddress', from, 'Invalid refund address');
  }

  /** `payload`: up to 5 string fields of at most 64 characters, given back as they came. */
  payload(): ChangeNowPayload | null {
    const value = this.params.payload;
    if (value === undefined || value === null) {
      return null;
    }
    const entries = isObject(value) ? Object.entries(value) : null;
    if (
      entries === null ||
      entries.length > PAYLOAD_FIELDS ||
      entries.some(([, v]) => typeof v !== 'string' || v.length > PAYLOAD_VALUE_LENGTH)
    ) {
      throw notValidParams(
        `payload must be an object of at most ${PAYLOAD_FIELDS} strings of at most ${PAYLOAD_VALUE_LENGTH} characters`,
      );
    }
    return Object.fromEntries(entries) as ChangeNowPayload;
  }

  integer(key: string, fallback: number, min: number, max: number): number {
    const value = this.text(key);
    if (value === undefined) {
      return fallback;
    }
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw notValidParams(`${key} must be an integer from ${min} to ${max}`);
    }
    return Number(value);
  }

  /** An ISO 8601 time, in ms; null when absent. */
  time(key: string): number | null {
    const value = this.text(key);
    if (value === undefined) {
      return null;
    }
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) {
      throw notValidParams(`${key} must be an ISO 8601 date`);
    }
    return ms;
  }

  private address(key: string, currency: SandboxCurrency, message: string): string {
    const address = this.text(key);
    if (address === undefined || !validateAddress(currency.blockchain, address).valid) {
      throw new ChangeNowFailure(400, CHANGENOW_ERRORS.notValidAddress, message);
    }
    return address;
  }
}
