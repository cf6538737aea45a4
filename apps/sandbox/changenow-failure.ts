import type { Decimal } from 'decimal.js';
import { CHANGENOW_ERRORS } from '#app/provider';
import type { SandboxCurrency } from './catalogue.js';

/** A 4xx answer of the ChangeNOW-style API: `{"error": "<word>", "message": "…"}`. */
export class ChangeNowFailure extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
  ) {
    super(message);
    this.name = 'ChangeNowFailure';
  }
}

export function notValidParams(message: string): ChangeNowFailure {
  return new ChangeNowFailure(400, CHANGENOW_ERRORS.notValidParams, message);
}

export function pairIsInactive(): ChangeNowFailure {
  return new ChangeNowFailure(400, CHANGENOW_ERRORS.pairIsInactive, 'Pair is inactive');
}

/** Like ChangeNOW's, the words name the bound; the adapter reads it from the range instead. */
export function outOfRange(
  side: 'min' | 'max',
  bound: Decimal,
  currency: SandboxCurrency,
): ChangeNowFailure {
  const words = side === 'min' ? 'less than the minimal' : 'more than the maximal';
  return new ChangeNowFailure(
    400,
    CHANGENOW_ERRORS.outOfRange,
    `Amount is ${words} ${bound.toFixed()} ${currency.changenow.ticker}`,
  );
}
