import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { POSITIVE_DECIMAL_STRING } from '#app/domain';
import { IsPlainText } from './plain-text.validator.js';

/**
 * Whether a field may be left out, and what null means (docs/decisions.md, "Null for an optional
 * field means absent").
 */
export interface FieldPresence {
  /** Default true: the field must be sent, and null is refused like any value of another type. */
  required?: boolean;
  /**
   * Null is a value of this field (it clears what is stored), kept as null for the service. Only
   * the fields the decision names are nullable; the field is then optional too.
   */
  nullable?: boolean;
}

/** How each request class's fields were declared, for the spec that every field is declared so. */
const DECLARED = new WeakMap<object, Map<string, FieldPresence>>();

/** Services see an absent optional field one way only: `undefined`, never null. */
function nullAsAbsent({ value }: { value: unknown }): unknown {
  return value === null ? undefined : value;
}

function declare(presence: FieldPresence): PropertyDecorator {
  return (target, property) => {
    const fields = DECLARED.get(target) ?? new Map<string, FieldPresence>();
    fields.set(String(property), presence);
    DECLARED.set(target, fields);
  };
}

/**
 * One request field: the null rule for its presence, then `rules` in the order a client should
 * hear about them (class-validator checks a field's rules in the order they are applied here).
 * Every field of every request class is declared through this or one of the kinds below.
 */
export function Field(presence: FieldPresence, ...rules: PropertyDecorator[]): PropertyDecorator {
  const required = presence.required !== false && presence.nullable !== true;
  const presenceRules = required
    ? []
    : presence.nullable === true
      ? [IsOptional()]
      : [Transform(nullAsAbsent), IsOptional()];
  const decorators = [declare(presence), ...presenceRules, ...rules];
  return (target, property) => {
    for (const decorator of decorators) {
      decorator(target, property);
    }
  };
}

/** The fields of a request class (its parents' included) and how each was declared. */
export function declaredFields(
  type: abstract new (...args: never[]) => unknown,
): Map<string, FieldPresence> {
  const fields = new Map<string, FieldPresence>();
  const chain: object[] = [];
  for (let prototype: object | null = type.prototype as object; prototype;) {
    chain.unshift(prototype);
    prototype = Object.getPrototypeOf(prototype) as object | null;
  }
  for (const prototype of chain) {
    for (const [name, presence] of DECLARED.get(prototype) ?? []) {
      fields.set(name, presence);
    }
  }
  return fields;
}

export interface StringFieldOptions extends FieldPresence {
  maxLength: number;
  /** Refuse `""` too (with `emptyMessage`). */
  notEmpty?: boolean;
  /** Leading and trailing white space is dropped before the checks. */
  trim?: boolean;
  typeMessage?: string;
  emptyMessage?: string;
}

function trimmed({ value }: { value: unknown }): unknown {
  return typeof value === 'string' ? value.trim() : value;
}

/**
 * A string: missing or not a string first, then empty, then too long, then characters no field
 * may hold ("One string rule for every input"), then `rules` (a pattern, an address form).
 */
export function StringField(
  name: string,
  options: StringFieldOptions,
  ...rules: PropertyDecorator[]
): PropertyDecorator {
  return Field(
    options,
    ...(options.trim ? [Transform(trimmed)] : []),
    IsString({ message: options.typeMessage ?? `${name} must be a string.` }),
    ...(options.notEmpty
      ? [IsNotEmpty({ message: options.emptyMessage ?? `${name} is required.` })]
      : []),
    MaxLength(options.maxLength, {
      message: `${name} must be at most ${options.maxLength} characters.`,
    }),
    IsPlainText(),
    ...rules,
  );
}

/** One of `values`. */
export function EnumField(
  name: string,
  values: readonly string[],
  options: FieldPresence & { message?: string } = {},
): PropertyDecorator {
  return Field(
    options,
    IsIn(values, { message: options.message ?? `${name} must be one of ${values.join(', ')}.` }),
  );
}

/**
 * A decimal amount: a positive decimal string (never a JSON number, amounts are never floats).
 * Precision and a pair's bounds are the catalogue's, checked later.
 */
export function AmountField(
  name: string,
  options: FieldPresence & { typeMessage?: string } = {},
): PropertyDecorator {
  return StringField(
    name,
    {
      ...options,
      maxLength: 64,
      typeMessage: options.typeMessage ?? `${name} must be a positive decimal string, e.g. "0.1".`,
    },
    Matches(POSITIVE_DECIMAL_STRING, { message: `${name} must be a positive decimal string.` }),
  );
}

/**
 * A query parameter read as an integer only when it is written as one (`-?[0-9]+`): anything else
 * (`""`, `1e2`, `0x10`, `1.0`) is left as text for `IsInt` to refuse. `Number()` alone would read
 * `""` as 0 and `1e2` as 100, which the document's `type: integer` does not promise.
 */
function integerText({ value }: { value: unknown }): unknown {
  return typeof value === 'string' && /^-?[0-9]+$/.test(value) ? Number(value) : value;
}

/** An integer from `min` to `max`; in a query string, written as digits. */
export function IntegerField(
  name: string,
  bounds: { min: number; max: number },
  options: FieldPresence & { message?: string } = {},
): PropertyDecorator {
  const message =
    options.message ?? `${name} must be an integer from ${bounds.min} to ${bounds.max}.`;
  return Field(
    options,
    Transform(integerText),
    IsInt({ message }),
    Min(bounds.min, { message }),
    Max(bounds.max, { message }),
  );
}

const BOOLEAN_WORDS: Record<string, boolean> = { true: true, '1': true, false: false, '0': false };

/** `true`/`false`; in a query string also the words `true`/`false` and `1`/`0`. */
export function BooleanField(
  name: string,
  options: FieldPresence & { fromText?: boolean } = {},
): PropertyDecorator {
  return Field(
    options,
    ...(options.fromText
      ? [
          Transform(({ value }: { value: unknown }) =>
            typeof value === 'string' && value in BOOLEAN_WORDS ? BOOLEAN_WORDS[value] : value,
          ),
        ]
      : []),
    IsBoolean({ message: `${name} must be true or false.` }),
  );
}
