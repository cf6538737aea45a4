import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { StringField } from '#app/input';

/** A required ticker field or query parameter (`from`, `to`, `currency`); aliases are resolved later. */
export function TickerField(name: string, example: string): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      example,
      description:
        'Ticker; case-insensitive, common aliases accepted. A well-formed ticker the service ' +
        'does not list (`GET /v1/currencies`), or a pair it cannot route, answers 400 ' +
        '`pair_unsupported`.',
    }),
    StringField(name, {
      maxLength: 32,
      notEmpty: true,
      typeMessage: `${name} is required: a ticker string such as "${example}".`,
    }),
  );
}
