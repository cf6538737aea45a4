import { ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * C0 and C1 controls (U+0000–U+001F, U+007F–U+009F) and, in `u` mode, any surrogate not part of
 * a pair: Postgres refuses NUL in text and lone surrogates in jsonb, and no single-line field
 * (a name, an address, a reference) has a use for the rest.
 */
const NOT_PLAIN_TEXT = /[\p{Cc}\uD800-\uDFFF]/u;

export function isPlainText(value: string): boolean {
  return !NOT_PLAIN_TEXT.test(value);
}

/**
 * The one string rule of every input (partner, admin, CLI and sandbox): text the database can
 * store as sent. Checked before anything is stored or sent upstream, so a value Postgres would
 * refuse is a 400 instead of a 500 after the provider already acted. Non-strings are left to the
 * type check.
 */
export function IsPlainText(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isPlainText',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || isPlainText(value),
        defaultMessage: (args) =>
          `${args?.property ?? 'The value'} must not contain control characters or unpaired surrogates.`,
      },
    },
    options,
  );
}
