import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsPlainText } from '#app/input';

export interface StringFieldOptions {
  maxLength: number;
  /**
   * Default true. An optional field may be omitted or sent as null (the same: absent), but when
   * it carries a value that must still be a string.
   */
  required?: boolean;
  /** Refuse `""` too (with `emptyMessage`). */
  notEmpty?: boolean;
  typeMessage?: string;
  emptyMessage?: string;
  api?: ApiPropertyOptions;
}

/** Services see an absent optional field one way only: `undefined`, never null. */
function nullAsAbsent({ value }: { value: unknown }): unknown {
  return value === null ? undefined : value;
}

/**
 * A string field with its checks in the order a partner should hear about them: missing or not
 * a string first, then empty, then too long, then characters no field may hold (stacked
 * decorators would report the length first).
 */
export function StringField(name: string, options: StringFieldOptions): PropertyDecorator {
  const required = options.required ?? true;
  const api = { maxLength: options.maxLength, ...options.api } as ApiPropertyOptions;
  return applyDecorators(
    required ? ApiProperty(api) : ApiPropertyOptional(api),
    ...(required ? [] : [Transform(nullAsAbsent), IsOptional()]),
    IsString({ message: options.typeMessage ?? `${name} must be a string.` }),
    ...(options.notEmpty
      ? [IsNotEmpty({ message: options.emptyMessage ?? `${name} is required.` })]
      : []),
    MaxLength(options.maxLength, {
      message: `${name} must be at most ${options.maxLength} characters.`,
    }),
    IsPlainText(),
  );
}
