import { Decimal } from 'decimal.js';

/**
 * A decimal string as amounts travel on the wire: digits with an optional fraction; no sign, no
 * exponent (docs/decisions.md, "Amounts and addresses").
 */
export const DECIMAL_STRING = /^\d+(\.\d+)?$/;

/**
 * A decimal string greater than zero: the shape every amount a partner sends must have, written
 * with ASCII classes only so the OpenAPI document's copy means the same in every regex dialect.
 */
export const POSITIVE_DECIMAL_STRING = /^(?=[0-9.]*[1-9])[0-9]+(\.[0-9]+)?$/;

/** The same with an optional minus sign (a percent delta such as `amountAnomalyPct`). */
export const SIGNED_DECIMAL_STRING = /^-?\d+(\.\d+)?$/;

export function isDecimalString(value: unknown): value is string {
  return typeof value === 'string' && DECIMAL_STRING.test(value);
}

/** Why a partner's amount cannot be used. */
export type AmountProblem = 'not_decimal' | 'not_positive' | 'too_many_decimals';

export type AmountCheck = { ok: true; value: string } | { ok: false; problem: AmountProblem };

/**
 * Checks a partner's amount: a decimal string, greater than 0, with at most `precision` decimals.
 * The accepted value is normalized (no leading zeros, no trailing fraction zeros, no exponent).
 */
export function checkAmount(raw: unknown, precision: number): AmountCheck {
  if (!isDecimalString(raw)) {
    return { ok: false, problem: 'not_decimal' };
  }
  const value = new Decimal(raw);
  if (value.lte(0)) {
    return { ok: false, problem: 'not_positive' };
  }
  if (value.decimalPlaces() > precision) {
    return { ok: false, problem: 'too_many_decimals' };
  }
  return { ok: true, value: value.toFixed() };
}

/** Where an amount falls against a pair's bounds for its mode. */
export function boundsProblem(
  amount: string,
  min: string,
  max: string,
): 'below_min' | 'above_max' | null {
  const value = new Decimal(amount);
  if (value.lt(min)) {
    return 'below_min';
  }
  return value.gt(max) ? 'above_max' : null;
}

/**
 * Takes the partner fee off a payout amount like a rate markup (docs/decisions.md, "Partner fee on
 * quotes"), rounding down to the payout currency's precision so the user is never promised more
 * than arrives.
 */
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

/** Percent by which the received amount differs from the requested one (20 = 20 % more). */
export function anomalyPercent(requested: string, actual: string | null): string | null {
  if (actual === null || new Decimal(requested).isZero()) {
    return null;
  }
  return new Decimal(actual).minus(requested).div(requested).mul(100).toDecimalPlaces(4).toFixed();
}
