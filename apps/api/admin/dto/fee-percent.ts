import { Decimal } from 'decimal.js';
import { ValidateBy, type ValidationOptions } from 'class-validator';

const DECIMAL = /^\d+(\.\d{1,8})?$/;
const MAX_FEE_PERCENT = new Decimal(4);

/**
 * The canonical decimal string of a partner fee in percent (0–4, DECISIONS §3.10), or null when
 * the value is not one. The admin surface also takes a JSON number (DECISIONS §5); it is turned
 * into its shortest decimal form at once and never computed with.
 */
export function normalizeFeePercent(value: unknown): string | null {
  let text: unknown = value;
  if (typeof value === 'number') {
    text = Number.isFinite(value) ? new Decimal(value).toFixed() : null;
  }
  if (typeof text !== 'string' || !DECIMAL.test(text)) {
    return null;
  }
  const fee = new Decimal(text);
  return fee.lte(MAX_FEE_PERCENT) ? fee.toFixed() : null;
}

/** Transform step for DTOs: a valid fee becomes its canonical string; anything else is left for the validator. */
export function toFeePercent({ value }: { value: unknown }): unknown {
  return normalizeFeePercent(value) ?? value;
}

export const FEE_PERCENT_MESSAGE =
  'feePercent must be a decimal string from "0" to "4" with at most 8 decimals.';

export function IsFeePercent(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isFeePercent',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && normalizeFeePercent(value) === value,
        defaultMessage: () => FEE_PERCENT_MESSAGE,
      },
    },
    options,
  );
}
