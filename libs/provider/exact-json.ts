/*
 * JSON numbers without the loss of a double: ChangeNOW sends amounts as JSON numbers, and an
 * 18-decimal amount does not survive `JSON.parse` as a number. Node 24 has both halves of the
 * JSON source text proposal (a reviver's `context.source`, `JSON.rawJSON`); TypeScript's lib does
 * not declare them yet, hence the narrow casts.
 */

/** A number written into JSON exactly as its decimal text. */
export interface JsonNumber {
  readonly rawJSON: string;
}

type SourceReviver = (key: string, value: unknown, context: { source?: string }) => unknown;

const withSource = JSON as unknown as {
  parse(text: string, reviver: SourceReviver): unknown;
  rawJSON(text: string): JsonNumber;
};

/** `decimal` (plain notation) as a JSON number, for `JSON.stringify`. */
export function jsonNumber(decimal: string): JsonNumber {
  return withSource.rawJSON(decimal);
}

/** Parses JSON with every number as its exact source text, a decimal string. */
export function parseExactJson(text: string): unknown {
  return withSource.parse(text, (_key, value, context) =>
    typeof value === 'number' && context.source !== undefined ? context.source : value,
  );
}
