import type { Type } from '@nestjs/common';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { createValidationPipe } from '#app/http';
import { ValidateAddressDto } from '../platform/contract/validate-address.dto.js';
import { CurrenciesQueryDto } from '../platform/contract/currencies-query.dto.js';
import { ListEventsDto } from './events/dto/list-events.dto.js';
import { PairQueryDto } from '../platform/contract/pair-query.dto.js';
import { PublicQuoteQueryDto } from './public-quotes/dto/public-quote-query.dto.js';
import { CreateQuoteDto } from '../platform/contract/create-quote.dto.js';
import { CreateSwapDto } from '../platform/contract/create-swap.dto.js';
import { ListSwapsDto } from './swaps/dto/list-swaps.dto.js';
import {
  TestAddressesQueryDto,
  TestDepositDto,
  TestStatusDto,
} from '../platform/contract/test-helpers.dto.js';
import { EmptyBodyDto } from './webhook-endpoints/dto/empty-body.dto.js';
import {
  CreateWebhookEndpointDto,
  ListDeliveriesDto,
  UpdateWebhookEndpointDto,
} from './webhook-endpoints/dto/webhook-endpoint.dto.js';
import {
  derivedProperties,
  type JsonSchema,
  PLAIN_TEXT_PATTERN,
  PLAIN_TEXT_RULE,
  strictBodySchema,
  strictQuerySchema,
} from '../platform/openapi/request-schemas.js';

const BODIES: Type[] = [
  CreateSwapDto,
  CreateQuoteDto,
  ValidateAddressDto,
  CreateWebhookEndpointDto,
  UpdateWebhookEndpointDto,
  EmptyBodyDto,
  TestDepositDto,
  TestStatusDto,
];

const QUERIES: Type[] = [
  ListSwapsDto,
  ListEventsDto,
  PairQueryDto,
  PublicQuoteQueryDto,
  CurrenciesQueryDto,
  TestAddressesQueryDto,
  ListDeliveriesDto,
];

const pipe = createValidationPipe();

async function pipeAccepts(dto: Type, value: unknown, type: 'body' | 'query'): Promise<boolean> {
  try {
    await pipe.transform(value, { type, metatype: dto, data: undefined });
    return true;
  } catch {
    return false;
  }
}

/**
 * The rule the document states in prose beside its portable pattern: a string holding an
 * unpaired surrogate is refused. A schema validator reads the pattern; the document's reader
 * (and this test) reads the prose too.
 */
function breaksStatedRule(value: unknown): boolean {
  if (typeof value === 'string') {
    return /\p{Cs}/u.test(value);
  }
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.values(value as Record<string, unknown>).some(breaksStatedRule)
  );
}

/** Every property schema (and array item schema) of an object schema. */
function propertySchemas(schema: JsonSchema): JsonSchema[] {
  return Object.values((schema.properties ?? {}) as Record<string, JsonSchema>).flatMap((p) => [
    p,
    ...(p.items ? [p.items as JsonSchema] : []),
  ]);
}

function ajv(): Ajv2020 {
  const instance = new Ajv2020({ strict: false, allErrors: false });
  (addFormats as unknown as (a: Ajv2020) => void)(instance);
  return instance;
}

/** Values near every edge a property's schema draws: its enum, lengths, pattern, type, null. */
function candidates(schema: JsonSchema): fc.Arbitrary<unknown> {
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : 16;
  const enumValues = (schema.enum ??
    (schema.items as JsonSchema | undefined)?.enum ??
    []) as unknown[];
  const strings = fc.constantFrom(
    '',
    'btc',
    '0.1',
    '1',
    '0',
    '00.50',
    '-1',
    '1e3',
    '.5',
    '1.',
    ' 1',
    '١',
    'https://example.com/hooks',
    'a\u0000b',
    'a\uD800b',
    '\u001B[2J',
    'caf\u00e9 \u{1F600}',
    'x'.repeat(maxLength),
    'x'.repeat(maxLength + 1),
  );
  return fc.oneof(
    strings,
    fc.string({ maxLength: 8 }),
    fc.stringMatching(/^[0-9]{1,3}(\.[0-9]{1,3})?$/),
    fc.constant(null),
    fc.integer({ min: -2, max: 300 }),
    fc.double(),
    fc.boolean(),
    fc.constant({}),
    ...(enumValues.length > 0
      ? [
          fc.constantFrom(...enumValues),
          fc.subarray(enumValues.filter((v) => v !== null)),
          fc.array(fc.constantFrom(...enumValues), { maxLength: 4 }),
        ]
      : [fc.constant(['a'])]),
  );
}

function typesOf(schema: JsonSchema): string[] {
  return Array.isArray(schema.type) ? (schema.type as string[]) : [String(schema.type)];
}

/** A value the schema accepts, so most samples get past the first field and test the next. */
function valid(schema: JsonSchema): fc.Arbitrary<unknown> {
  const items = schema.items as JsonSchema | undefined;
  if (Array.isArray(schema.enum)) {
    return fc.constantFrom(...(schema.enum as unknown[]));
  }
  if (typesOf(schema).includes('array') && Array.isArray(items?.enum)) {
    return fc.subarray(items.enum as unknown[], { minLength: 1 });
  }
  if (typesOf(schema).includes('boolean')) {
    return fc.boolean();
  }
  if (typesOf(schema).includes('integer')) {
    return fc.integer({ min: Number(schema.minimum ?? 0), max: Number(schema.maximum ?? 100) });
  }
  return fc.constantFrom('0.1', '12', 'btc');
}

/**
 * Objects whose properties are absent, valid or any candidate, sometimes with a field nobody
 * knows.
 */
function bodies(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const record = fc.record(
    Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [
        name,
        fc.oneof(
          { weight: 6, arbitrary: valid(property) },
          { weight: 1, arbitrary: candidates(property) },
        ),
      ]),
    ),
    { requiredKeys: [] },
  );
  return fc
    .tuple(
      record,
      fc.option(fc.constantFrom('unknown', 'extraId', '__proto__x'), { nil: null, freq: 8 }),
    )
    .map(([body, extra]) => (extra === null ? body : { ...body, [extra]: 'x' }));
}

/** How a value reaches a query string: text (null: left out). */
function asQueryText(value: unknown): string | undefined {
  if (value === null) {
    return undefined;
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const BOOLEAN_TEXT: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };

/**
 * A query string carries text: an integer parameter is an integer when written as one, a boolean
 * one `true`/`false` (`1`/`0` are read the same), as OpenAPI's form style serializes them.
 */
function fromQueryText(
  query: Record<string, unknown>,
  schema: JsonSchema,
): Record<string, unknown> {
  const properties = schema.properties as Record<string, JsonSchema>;
  return Object.fromEntries(
    Object.entries(query).map(([name, text]) => {
      const types = typesOf(properties[name] ?? {});
      if (types.includes('integer') && /^-?[0-9]+$/.test(String(text))) {
        return [name, Number(text)];
      }
      if (types.includes('boolean') && String(text) in BOOLEAN_TEXT) {
        return [name, BOOLEAN_TEXT[String(text)]];
      }
      return [name, text];
    }),
  );
}

/**
 * The one-source rule: the request schemas in the OpenAPI document are derived from the DTOs'
 * validators, and for any value the validation pipe and a JSON Schema validator reading the
 * derived schema agree on accept or refuse. A validator the derivation cannot express fails here.
 */
describe('Request schemas derived from the validators', () => {
  it.each([...BODIES, ...QUERIES].map((dto) => [dto.name, dto]))(
    '%s: every validator has a schema form',
    (_name, dto) => {
      const unexpressed = [...derivedProperties(dto).entries()]
        .filter(([, property]) => property.unexpressed.length > 0)
        .map(([name, property]) => `${name}: ${property.unexpressed.join(', ')}`);
      expect(unexpressed).toEqual([]);
    },
  );

  it.each([...BODIES, ...QUERIES].map((dto) => [dto.name, dto]))(
    '%s: every plain-text field has a portable pattern and states the rest in words',
    (_name, dto) => {
      for (const field of propertySchemas(strictBodySchema(dto, {}))) {
        const pattern = typeof field.pattern === 'string' ? field.pattern : '';
        // No surrogate range: Rust's and RE2's regex engines refuse to compile one.
        expect(pattern).not.toMatch(/\\uD[89A-F]/i);
        if (pattern === PLAIN_TEXT_PATTERN) {
          expect(field.description).toContain(PLAIN_TEXT_RULE);
        }
      }
    },
  );

  it.each(BODIES.map((dto) => [dto.name, dto]))(
    '%s: the pipe accepts exactly the bodies the schema accepts',
    async (_name, dto) => {
      const schema = strictBodySchema(dto, {});
      const validate = ajv().compile(schema);
      let accepted = 0;
      await fc.assert(
        fc.asyncProperty(bodies(schema), async (body) => {
          const byPipe = await pipeAccepts(dto, structuredClone(body), 'body');
          const bySchema = validate(body) && !breaksStatedRule(body);
          accepted += bySchema ? 1 : 0;
          expect({ body, byPipe }).toEqual({ body, byPipe: bySchema });
        }),
        { numRuns: 400 },
      );
      // Property-based runs prove nothing if nearly every sample is refused for one reason.
      expect(accepted).toBeGreaterThan(0);
    },
  );

  it.each(QUERIES.map((dto) => [dto.name, dto]))(
    '%s: the pipe accepts exactly the query strings the parameters accept',
    async (_name, dto) => {
      const derived = derivedProperties(dto);
      const schema: JsonSchema = {
        type: 'object',
        properties: Object.fromEntries(
          [...derived.entries()].map(([name, p]) => [name, strictQuerySchema(p, undefined)]),
        ),
        required: [...derived.entries()].filter(([, p]) => p.required).map(([name]) => name),
      };
      const validate = ajv().compile(schema);
      const texts = fc.oneof(
        candidates({}).map(asQueryText),
        ...Object.values(schema.properties as Record<string, JsonSchema>).map((p) =>
          candidates(p).map(asQueryText),
        ),
      );
      const queries = fc.record(
        Object.fromEntries([...derived.keys()].map((name) => [name, texts])),
        { requiredKeys: [] },
      );
      await fc.assert(
        fc.asyncProperty(queries, async (query) => {
          const present = Object.fromEntries(
            Object.entries(query).filter(([, value]) => value !== undefined),
          );
          const byPipe = await pipeAccepts(dto, { ...present }, 'query');
          const bySchema = validate(fromQueryText(present, schema)) && !breaksStatedRule(present);
          expect({ query: present, byPipe }).toEqual({ query: present, byPipe: bySchema });
        }),
        { numRuns: 300 },
      );
    },
  );
});
