import { ValidateBy, type ValidationOptions } from 'class-validator';
import { normalizeFeePercent } from '#app/domain';

/** Transform step for DTOs: a valid fee becomes its canonical string; anything else is left for the validator. */
export function toFeePercent({ value }: { value: unknown }): unknown {
  return normalizeFeePercent(value) ?? value;
}

const FEE_PERCENT_MESSAGE =
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
