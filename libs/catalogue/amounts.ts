import { boundsProblem, checkAmount, type AmountProblem } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';

/** The message of spec rule 9: the provider's generic answer for a pair it will not route. */
export const PAIR_UNAVAILABLE_MESSAGE =
  'The currency pair is unavailable for this amount or address.';

const AMOUNT_ERRORS: Record<AmountProblem, (param: string) => AppError> = {
  not_decimal: (param) =>
    new AppError(ErrorCode.InvalidRequest, `${param} must be a positive decimal string.`, {
      param,
    }),
  not_positive: (param) =>
    new AppError(ErrorCode.InvalidRequest, `${param} must be a positive decimal string.`, {
      param,
    }),
  // docs/decisions.md, "Amounts and addresses": more decimals than the currency has is rule 9's
  // generic rejection.
  too_many_decimals: (param) =>
    new AppError(ErrorCode.InvalidRequest, PAIR_UNAVAILABLE_MESSAGE, {
      param,
      upstreamCode: -32602,
    }),
};

/** The domain's amount rule with the spec's errors; returns the normalized amount. */
export function parseAmount(raw: unknown, precision: number, param: string): string {
  if (typeof raw !== 'string') {
    throw new AppError(ErrorCode.InvalidRequest, `${param} must be a decimal string, e.g. "0.1".`, {
      param,
    });
  }
  const check = checkAmount(raw, precision);
  if (!check.ok) {
    throw AMOUNT_ERRORS[check.problem](param);
  }
  return check.value;
}

/** Checks an amount against a pair's bounds with the spec's codes (message carries the bound). */
export function assertWithinBounds(amount: string, min: string, max: string, ticker: string): void {
  switch (boundsProblem(amount, min, max)) {
    case 'below_min':
      throw new AppError(ErrorCode.AmountBelowMin, `Minimal amount is ${min} ${ticker}.`, {
        param: 'amountFrom',
      });
    case 'above_max':
      throw new AppError(ErrorCode.AmountAboveMax, `Maximal amount is ${max} ${ticker}.`, {
        param: 'amountFrom',
      });
    case null:
      return;
  }
}
