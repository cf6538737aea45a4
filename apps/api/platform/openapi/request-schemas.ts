import type { INestApplication, Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { ModulesContainer } from '@nestjs/core';
import { getMetadataStorage } from 'class-validator';

export type JsonSchema = Record<string, unknown>;

type ValidationMetadata = ReturnType<
  ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']
>[number];

/**
 * What `IsPlainText` refuses that a pattern can say in every regex dialect (ECMA-262, Python,
 * Rust, RE2): C0 and C1 controls, written with `\u` escapes only. A range of surrogates would
 * not compile in Rust's or RE2's engines, whose strings cannot hold one: the refusal of unpaired
 * surrogates is stated in prose (`PLAIN_TEXT_RULE`) on every field that has this pattern.
 */
export const PLAIN_TEXT_PATTERN = '^[^\\u0000-\\u001F\\u007F-\\u009F]*$';

/** The plain-text rule in words, appended to the description of every field it applies to. */
export const PLAIN_TEXT_RULE =
  'Plain text: control characters (U+0000 to U+001F, U+007F to U+009F) and unpaired UTF-16 ' +
  'surrogates (a `\\ud800` escape without its pair) are refused with 400.';

/** The schema of one validator, or null when JSON Schema cannot say it (reported, not guessed). */
function keywordsOf(meta: ValidationMetadata): JsonSchema | null {
  const [first] = (meta.constraints ?? []) as unknown[];
  switch (meta.name) {
    case 'isString':
      return { type: 'string' };
    case 'isBoolean':
      return { type: 'boolean' };
    case 'isInt':
      return { type: 'integer' };
    case 'isArray':
      return { type: 'array' };
    case 'isIn': {
      const values = [...(first as unknown[])];
      return values.every((value) => typeof value === 'string')
        ? { type: 'string', enum: values }
        : { enum: values };
    }
    case 'maxLength':
      return { maxLength: first };
    case 'isNotEmpty':
      return { minLength: 1 };
    case 'isPlainText':
      return { pattern: PLAIN_TEXT_PATTERN };
    case 'matches':
      return { pattern: (first as RegExp).source };
    case 'min':
      return { minimum: first };
    case 'max':
      return { maximum: first };
    case 'arrayNotEmpty':
      return { minItems: 1 };
    case 'arrayMinSize':
      return { minItems: first };
    case 'arrayMaxSize':
      return { maxItems: first };
    case 'arrayUnique':
      return { uniqueItems: true };
    case 'isUUID':
      return { type: 'string', format: 'uuid' };
    case undefined:
    default:
      return null;
  }
}

/** One property's schema and whether it may be left out, as the validators see them. */
export interface DerivedProperty {
  schema: JsonSchema;
  required: boolean;
  /** Validators whose rule the schema cannot carry: a test fails on any. */
  unexpressed: string[];
}

function merge(target: JsonSchema, keywords: JsonSchema): void {
  for (const [key, value] of Object.entries(keywords)) {
    // A validator-specific pattern (an amount) implies the plain-text one: it wins.
    if (key === 'pattern' && target.pattern !== undefined && value === PLAIN_TEXT_PATTERN) {
      continue;
    }
    target[key] = value;
  }
}

/**
 * The request schema a DTO's class-validator decorators accept, property by property: the one
 * source both the validation pipe and the OpenAPI document read, so they cannot disagree.
 * `IsOptional` accepts null as absent, so an optional field is also nullable.
 */
export function derivedProperties(dto: Type): Map<string, DerivedProperty> {
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const meta of metadatas) {
    byProperty.set(meta.propertyName, [...(byProperty.get(meta.propertyName) ?? []), meta]);
  }
  const derived = new Map<string, DerivedProperty>();
  for (const [property, metas] of byProperty) {
    const schema: JsonSchema = {};
    const items: JsonSchema = {};
    const unexpressed: string[] = [];
    let optional = false;
    let nullable = false;
    for (const meta of metas) {
      // `IsOptional` lets null and undefined through; `ValidateIf` only what its condition skips.
      if (meta.type === 'conditionalValidation') {
        optional = true;
        nullable ||= meta.name === 'isOptional';
        continue;
      }
      const keywords = keywordsOf(meta);
      if (keywords === null) {
        unexpressed.push(meta.name ?? meta.type);
      } else {
        merge(meta.each ? items : schema, keywords);
      }
    }
    if (Object.keys(items).length > 0) {
      schema.items = items;
    }
    if (nullable) {
      makeNullable(schema);
    }
    derived.set(property, { schema, required: !optional, unexpressed });
  }
  return derived;
}

function makeNullable(schema: JsonSchema): void {
  if (typeof schema.type === 'string') {
    schema.type = [schema.type, 'null'];
  }
  if (Array.isArray(schema.enum)) {
    schema.enum = [...(schema.enum as unknown[]), null];
  }
}

/** What a property's schema keeps from the DTO's `@ApiProperty`: the words, not the rules. */
const DOCUMENTATION = ['description', 'example', 'examples', 'default', 'title', 'format'];

function documented(generated: JsonSchema | undefined, derived: JsonSchema): JsonSchema {
  const words: JsonSchema = Object.fromEntries(
    DOCUMENTATION.filter((key) => generated?.[key] !== undefined).map((key) => [
      key,
      generated?.[key],
    ]),
  );
  const plain = [derived, derived.items as JsonSchema | undefined].some(
    (schema) => schema?.pattern === PLAIN_TEXT_PATTERN,
  );
  if (plain) {
    words.description = [words.description, PLAIN_TEXT_RULE].filter(Boolean).join(' ');
  }
  return { ...words, ...derived };
}

/**
 * A body schema exactly as strict as the validation pipe: only the validated properties (the
 * pipe refuses any other, `additionalProperties: false`), each with the derived rules.
 */
export function strictBodySchema(dto: Type, generated: JsonSchema): JsonSchema {
  const derived = derivedProperties(dto);
  const generatedProperties = (generated.properties ?? {}) as Record<string, JsonSchema>;
  const properties = Object.fromEntries(
    [...derived.entries()].map(([name, { schema }]) => [
      name,
      documented(generatedProperties[name], schema),
    ]),
  );
  const required = [...derived.entries()].filter(([, p]) => p.required).map(([name]) => name);
  const strict: JsonSchema = {
    type: 'object',
    ...(generated.description ? { description: generated.description } : {}),
    properties,
    additionalProperties: false,
  };
  if (required.length > 0) {
    strict.required = required;
  }
  return strict;
}

/** A query parameter's schema from its DTO: no `null` (a query string has none). */
export function strictQuerySchema(
  property: DerivedProperty,
  generated: JsonSchema | undefined,
): JsonSchema {
  const schema = structuredClone(property.schema);
  if (Array.isArray(schema.type)) {
    schema.type = (schema.type as string[]).filter((type) => type !== 'null')[0];
  }
  if (Array.isArray(schema.enum)) {
    schema.enum = (schema.enum as unknown[]).filter((value) => value !== null);
  }
  return documented(generated, schema);
}

/** The body and query DTO classes of one route handler. */
export interface RouteDtos {
  body?: Type;
  query?: Type;
}

interface RouteArgument {
  index: number;
}

/**
 * The DTO classes of every route, by the operation id the document gives it
 * (`<Controller without "Controller">_<method>`), read from Nest's own route metadata.
 */
export function routeDtos(app: INestApplication): Map<string, RouteDtos> {
  const found = new Map<string, RouteDtos>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller) {
        continue;
      }
      const prototype = controller.prototype as object;
      for (const method of Object.getOwnPropertyNames(prototype)) {
        const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) as
          Record<string, RouteArgument> | undefined;
        const types = Reflect.getMetadata('design:paramtypes', prototype, method) as
          Type[] | undefined;
        if (!args || !types) {
          continue;
        }
        const dtos: RouteDtos = {};
        for (const [key, { index }] of Object.entries(args)) {
          const kind = Number(key.split(':')[0]);
          if (kind === Number(RouteParamtypes.BODY)) {
            dtos.body = types[index];
          } else if (kind === Number(RouteParamtypes.QUERY)) {
            dtos.query = types[index];
          }
        }
        found.set(`${controller.name.replace(/Controller$/, '')}_${method}`, dtos);
      }
    }
  }
  return found;
}
