import { StringField } from './string-field.decorator.js';

/** A required ticker field or query parameter (`from`, `to`, `currency`); aliases are resolved later. */
export function TickerField(name: string, example: string): PropertyDecorator {
  return StringField(name, {
    maxLength: 32,
    notEmpty: true,
    typeMessage: `${name} is required: a ticker string such as "${example}".`,
    api: { example, description: 'Ticker; case-insensitive, common aliases accepted' },
  });
}
