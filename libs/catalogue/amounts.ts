import { Decimal } from 'decimal.js';
import { AppError, ErrorCode } from '#app/errors';

const DECIMAL_PATTERN = /^\d+(\.\d+)?$/;

/** The message of spec rule 9: the provider's generic answer for a pair it will not route. */
export const PAIR_UNAVAILABLE_MESSAGE =
  'The currency pair is unavailable for this amount or address.';

/**
 * Parses an amount (DECISIONS §3.5): a decimal string, greater than 0, with at most `precision`
 * decimals. Returns the normalized string (no leading zeros, no exponent).
 */
export function parseAmount(raw: unknown, precision: number, param: string): string {
  if (typeof raw !== 'string') {
    throw new AppError(ErrorCode.InvalidRequest, `${param} must be a decimal string, e.g. "0.1".`, {
      param,
    });
  }
  if (!DECIMAL_PATTERN.test(raw) || new Decimal(raw).lte(0)) {
    throw new AppError(ErrorCode.InvalidRequest, `${param} must be a positive decimal string.`, {
      param,
    });
  }
  const value = new Decimal(raw);
  if (value.decimalPlaces() > precision) {
    throw new AppError(ErrorCode.InvalidRequest, PAIR_UNAVAILABLE_MESSAGE, {
      param,
      upstreamCode: -32602,
    });
  }
  return value.toFixed();
}

/** Checks an amount against a pair's bounds with the spec's codes (message carries the bound). */
export function assertWithinBounds(amount: string, min: string, max: string, ticker: string): void {
  const value = new Decimal(amount);
  if (value.lt(min)) {
    throw new AppError(ErrorCode.AmountBelowMin, `Minimal amount is ${min} ${ticker}.`, {
      param: 'amountFrom',
    });
  }
  if (value.gt(max)) {
    throw new AppError(ErrorCode.AmountAboveMax, `Maximal amount is ${max} ${ticker}.`, {
      param: 'amountFrom',
    });
  }
}

/** Takes the partner fee off a payout amount, rounding down to the payout currency's precision. */
export function applyFee(amount: string, feePercent: string, precision: number): string {
  return new Decimal(amount)
    .mul(new Decimal(100).minus(feePercent))
    .div(100)
    .toDecimalPlaces(precision, Decimal.ROUND_DOWN)
    .toFixed();
}

/** `amountTo − networkFee`, never below zero. */
export function netOfNetworkFee(amountTo: string, networkFee: string): string {
  return Decimal.max(new Decimal(amountTo).minus(networkFee), 0).toFixed();
}
