import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

export interface StringFieldOptions {
  maxLength: number;
  /** Default true; an optional field may be omitted but, when sent, must still be a string. */
  required?: boolean;
  /** Refuse `""` too (with `emptyMessage`). */
  notEmpty?: boolean;
  typeMessage?: string;
  emptyMessage?: string;
  api?: ApiPropertyOptions;
}

/**
 * A string field with its checks in the order a partner should hear about them: missing or not
 * a string first, then empty, then too long (stacked decorators would report the length first).
 */
export function StringField(name: string, options: StringFieldOptions): PropertyDecorator {
  const required = options.required ?? true;
  const api = { maxLength: options.maxLength, ...options.api } as ApiPropertyOptions;
  return applyDecorators(
    required ? ApiProperty(api) : ApiPropertyOptional(api),
    ...(required ? [] : [IsOptional()]),
    IsString({ message: options.typeMessage ?? `${name} must be a string.` }),
    ...(options.notEmpty
      ? [IsNotEmpty({ message: options.emptyMessage ?? `${name} is required.` })]
      : []),
    MaxLength(options.maxLength, {
      message: `${name} must be at most ${options.maxLength} characters.`,
    }),
  );
}
