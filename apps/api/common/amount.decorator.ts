import { applyDecorators } from '@nestjs/common';
import type { ApiPropertyOptions } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { POSITIVE_DECIMAL_STRING } from '#app/domain';
import { StringField } from './string-field.decorator.js';

/**
 * An amount: a positive decimal string, checked by the validation pipe so the OpenAPI document
 * carries the same pattern (precision and the pair's bounds are the catalogue's, checked later).
 */
export function AmountField(
  name: string,
  options: { required?: boolean; typeMessage?: string; api?: ApiPropertyOptions } = {},
): PropertyDecorator {
  return applyDecorators(
    StringField(name, {
      maxLength: 64,
      required: options.required,
      typeMessage: options.typeMessage ?? `${name} must be a positive decimal string, e.g. "0.1".`,
      api: options.api,
    }),
    Matches(POSITIVE_DECIMAL_STRING, { message: `${name} must be a positive decimal string.` }),
  );
}
