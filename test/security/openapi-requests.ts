import { randomBytes, randomUUID } from 'node:crypto';
import { generateAddress } from '#app/chains';

export type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  example?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  uniqueItems?: boolean;
  additionalProperties?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
};

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}

export interface Link {
  operationId: string;
  parameters: Record<string, string>;
}

interface OperationObject {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  security?: unknown[];
  responses?: Record<string, { links?: Record<string, Link> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, Schema>; headers?: Record<string, unknown> };
}

/** Who may call an operation: a partner credential, the admin token, or anyone. */
export type Caller = 'partner' | 'admin' | 'anyone';

export interface Operation {
  operationId: string;
  /** The links of its success answer, by name. */
  links: Record<string, Link>;
  method: string;
  /** The templated path, as in the document. */
  template: string;
  caller: Caller;
  parameters: Parameter[];
  body: Schema | null;
}

/** One request to send; `body` is a JSON value, or raw text when it is a string. */
export interface PlannedRequest {
  /** What the request tries, for failure messages. */
  label: string;
  /** A hostile value the service must refuse with 400 (a body or query field it cannot store). */
  mustRefuse: boolean;
  /** An optional field sent as null: absent (2xx) or refused (400), nothing else. */
  nullForOptional: boolean;
  path: string;
  headers: Record<string, string>;
  body?: unknown;
  rawBody?: string;
}

/** Ids of real rows, so a baseline request reaches the code behind its validation. */
export interface Fixtures {
  swapId: string;
  /** A test-mode swap of the same organization, for the test helpers. */
  testSwapId: string;
  organizationId: string;
  publicKey: string;
  /** A live webhook endpoint of the same organization, and another that DELETE may remove. */
  webhookEndpointId: string;
  deletableWebhookEndpointId: string;
  /** A live event of the same organization, for the feed's `after`. */
  eventId: string;
  /** A dashboard user of the operator's organization. */
  userId: string;
  /** A widget key of the operator's target organization, for the revoke route. */
  widgetKey: string;
  /** A provider of `PROVIDERS` that may be taken out of routing: another one stays in. */
  providerId: string;
}

/** Where fuzzed webhook endpoints point: a closed local port, so a ping fails at once. */
export const FUZZ_WEBHOOK_URL = 'http://127.0.0.1:9/hooks';

export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [template, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const secured = (operation.security ?? []).length > 0;
      const success = Object.entries(operation.responses ?? {}).find(([status]) =>
        status.startsWith('2'),
      );
      operations.push({
        operationId: operation.operationId ?? `${method} ${template}`,
        links: success?.[1].links ?? {},
        method: method.toUpperCase(),
        template,
        caller: template.startsWith('/admin/') ? 'admin' : secured ? 'partner' : 'anyone',
        parameters: operation.parameters ?? [],
        body: operation.requestBody?.content['application/json']?.schema ?? null,
      });
    }
  }
  return operations;
}

// ---- values a well-behaved client sends --------------------------------------------------------

let sequence = 0;

/**
 * Valid values where the schema alone cannot say (a decimal amount, an address on the right
 * chain, a real id); everything else comes from the schema's enum, example or default.
 */
function hinted(name: string, fixtures: Fixtures): unknown {
  const hints: Record<string, () => unknown> = {
    from: () => 'btc',
    to: () => 'eth',
    currency: () => 'eth',
    amountFrom: () => '0.5',
    amount: () => '1',
    address: () => generateAddress('ethereum', (n) => randomBytes(n)),
    refundAddress: () => 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    payinAddress: () => 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    payoutAddress: () => generateAddress('ethereum', (n) => randomBytes(n)),
    partnerReferenceId: () => `order-${(sequence += 1)}`,
    name: () => `Fuzzed org ${(sequence += 1)}`,
    feePercent: () => '1',
    status: () => 'finished',
    organizationId: () => fixtures.organizationId,
    id: () => `swp_fuzz${(sequence += 1)}`,
    createdAt: () => '2025-01-01T09:55:00.000Z',
    limit: () => 10,
    offset: () => 0,
    lite: () => true,
    url: () => FUZZ_WEBHOOK_URL,
    email: () => `fuzz-${(sequence += 1)}@example.com`,
    after: () => fixtures.eventId,
    allowedOrigins: () => ['https://shop.example'],
    // Earlier operations may leave the target organization under review: a test widget key works.
    mode: () => 'test',
  };
  return hints[name]?.();
}

/** Optional fields a baseline leaves out: sending them changes what the request means. */
const LEFT_OUT = new Set(['extraId', 'rateId', 'providerSwapId', 'payoutAddress']);

export function resolve(document: OpenApiDocument, schema: Schema): Schema {
  const name = schema.$ref?.replace('#/components/schemas/', '');
  return name ? document.components.schemas[name] : schema;
}

export function sample(
  document: OpenApiDocument,
  name: string,
  raw: Schema,
  fixtures: Fixtures,
): unknown {
  const schema = resolve(document, raw);
  const hint = hinted(name, fixtures);
  if (hint !== undefined && (!schema.enum || schema.enum.includes(hint))) {
    return hint;
  }
  if (schema.enum) {
    return schema.enum[0];
  }
  if (schema.example !== undefined) {
    return schema.example;
  }
  if (schema.default !== undefined) {
    return schema.default;
  }
  const type = (Array.isArray(schema.type) ? schema.type[0] : schema.type) ?? 'string';
  switch (type) {
    case 'object':
      return sampleObject(document, schema, fixtures);
    case 'array':
      return [sample(document, name, schema.items ?? {}, fixtures)];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    default:
      return 'plain';
  }
}

export function sampleObject(
  document: OpenApiDocument,
  schema: Schema,
  fixtures: Fixtures,
): Record<string, unknown> {
  const required = new Set(schema.required ?? []);
  const entries = Object.entries(schema.properties ?? {}).filter(
    ([name]) => required.has(name) || (!LEFT_OUT.has(name) && hinted(name, fixtures) !== undefined),
  );
  return Object.fromEntries(
    entries.map(([name, property]) => [name, sample(document, name, property, fixtures)]),
  );
}

// ---- hostile values ----------------------------------------------------------------------------

function nested(depth: number): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i += 1) {
    value = { a: value };
  }
  return value;
}

/** Strings no field may hold: Postgres refuses NUL in text and lone surrogates in jsonb. */
const UNSTORABLE: [string, string][] = [
  ['NUL', 'a\u0000b'],
  ['a lone surrogate', 'a\uD800b'],
  ['a terminal escape', '\u001B[2J'],
];

const HOSTILE_JSON: [string, unknown][] = [
  ['null', null],
  ['a huge number', 1e308],
  ['2^64', 2 ** 64],
  ['a negative number', -1],
  ['a fraction', 0.5],
  ['a boolean', true],
  ['an empty string', ''],
  ['a long string', 'x'.repeat(5000)],
  ['an array', ['a']],
  ['an object', { a: 'b' }],
  ['nesting 20 deep', nested(20)],
  ['nesting 40 deep', nested(40)],
];

/** Query values, already percent-encoded as a client would put them on the wire. */
const UNSTORABLE_QUERY: [string, string][] = [
  ['%00', '%00'],
  ['NUL inside', 'a%00b'],
  ['an escape', '%1B'],
];
const HOSTILE_QUERY: [string, string][] = [
  ['an undecodable surrogate', '%ED%A0%80'],
  ['1e20', '1e20'],
  ['2^53 + 1', '9007199254740993'],
  ['-1', '-1'],
  ['NaN', 'NaN'],
  ['Infinity', 'Infinity'],
  ['empty', ''],
  ['a long value', 'q'.repeat(3000)],
];

const HOSTILE_PATH: [string, string][] = [
  ['%00', '%00'],
  ['an undecodable surrogate', '%ED%A0%80'],
  ['an overlong encoding', '%C0%80'],
  ['a truncated sequence', '%F0%9F'],
  ['a long segment', 's'.repeat(600)],
  ['an encoded parent', '%2e%2e%2f'],
  ['a number', '1e20'],
];

const HOSTILE_HEADER: [string, string][] = [
  ['empty', ''],
  ['not a UUID', 'not-a-uuid'],
  ['a v1 UUID', 'c232ab00-9414-11ec-b3c8-9f6bdeced846'],
  ['latin-1', 'caf\u00e9'],
  ['long', 'h'.repeat(3000)],
];

const RAW_BODIES: [string, string][] = [
  ['a JSON null', 'null'],
  ['a JSON array', '[]'],
  ['a JSON string', '"x"'],
  ['nesting 40 deep', JSON.stringify(nested(40))],
  ['a prototype key', '{"__proto__":{"admin":true}}'],
  ['an unknown field named NUL', '{"\\u0000":1}'],
];

// ---- plans -------------------------------------------------------------------------------------

export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => values[name] ?? 'missing');
}

export function queryString(values: Record<string, unknown>): string {
  const pairs = Object.entries(values).map(([k, v]) => `${k}=${String(v)}`);
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

function setAt(target: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(target) as Record<string | number, unknown>;
  let cursor = copy;
  for (const key of path.slice(0, -1)) {
    cursor = cursor[key] as Record<string | number, unknown>;
  }
  cursor[path[path.length - 1]] = value;
  return copy;
}

/** Every field of a body schema, nested objects and the first item of arrays included. */
function fieldPaths(
  document: OpenApiDocument,
  raw: Schema,
  prefix: (string | number)[] = [],
): { path: (string | number)[]; required: boolean }[] {
  const schema = resolve(document, raw);
  const required = new Set(schema.required ?? []);
  const fields: { path: (string | number)[]; required: boolean }[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const path = [...prefix, name];
    fields.push({ path, required: required.has(name) });
    const resolved = resolve(document, property);
    if (resolved.type === 'array' && resolved.items) {
      fields.push(...fieldPaths(document, resolved.items, [...path, 0]));
    } else if (resolved.properties) {
      fields.push(...fieldPaths(document, resolved, path));
    }
  }
  return fields;
}

/**
 * Every request the suite sends to one operation: a valid baseline built from the schemas, then
 * the baseline with one body field, query parameter, path parameter or header made hostile.
 * Each plan is built fresh (`() => …`) so ids and keys a baseline needs unique stay unique.
 */
export function planRequests(
  document: OpenApiDocument,
  operation: Operation,
  fixtures: Fixtures,
): (() => PlannedRequest)[] {
  const webhookEndpointId =
    operation.method === 'DELETE'
      ? fixtures.deletableWebhookEndpointId
      : fixtures.webhookEndpointId;
  const pathValues: Record<string, string> = {
    id: /^\/(?:v1|admin)\/swaps\//.test(operation.template)
      ? fixtures.swapId
      : operation.template.startsWith('/admin/providers/')
        ? fixtures.providerId
        : operation.template.startsWith('/v1/test_helpers/')
          ? fixtures.testSwapId
          : operation.template.startsWith('/v1/webhook_endpoints/')
            ? webhookEndpointId
            : operation.template.startsWith('/admin/users/')
              ? fixtures.userId
              : fixtures.organizationId,
    publicKey: fixtures.publicKey,
    key: fixtures.widgetKey,
  };
  const queryParams = operation.parameters.filter((p) => p.in === 'query');
  const headerParams = operation.parameters.filter((p) => p.in === 'header');
  /** Required parameters and those with a hint, as for bodies: `startingAfter` alone is not sent. */
  const baselineQuery = () =>
    Object.fromEntries(
      queryParams
        .filter(
          (p) => p.required || (!LEFT_OUT.has(p.name) && hinted(p.name, fixtures) !== undefined),
        )
        .map((p) => [p.name, sample(document, p.name, p.schema, fixtures)]),
    );
  const baseline = (): PlannedRequest => {
    const query = baselineQuery();
    const headers = Object.fromEntries(
      headerParams.map((p) => [p.name, p.name === 'Idempotency-Key' ? randomUUID() : 'x']),
    );
    const body = operation.body
      ? sampleObject(document, resolve(document, operation.body), fixtures)
      : undefined;
    return {
      label: 'the baseline',
      mustRefuse: false,
      nullForOptional: false,
      path: `${fillPath(operation.template, pathValues)}${queryString(query)}`,
      headers,
      body,
    };
  };
  const plans: (() => PlannedRequest)[] = [baseline];
  /** The baseline with its query string rewritten around one parameter. */
  const withQuery =
    (label: string, mustRefuse: boolean, build: (query: Record<string, unknown>) => string) =>
    (): PlannedRequest => {
      const query = baselineQuery();
      return {
        ...baseline(),
        label,
        mustRefuse,
        path: `${fillPath(operation.template, pathValues)}${build(query)}`,
      };
    };
  for (const { name } of queryParams) {
    const set = (value: string) => (query: Record<string, unknown>) =>
      queryString({ ...query, [name]: value });
    for (const [label, value] of UNSTORABLE_QUERY) {
      plans.push(withQuery(`query ${name} = ${label}`, true, set(value)));
    }
    for (const [label, value] of HOSTILE_QUERY) {
      plans.push(withQuery(`query ${name} = ${label}`, false, set(value)));
    }
    plans.push(withQuery(`query ${name} twice`, false, set(`1&${name}=2`)));
    plans.push(withQuery(`query ${name}[a] (an object)`, false, () => `?${name}[a]=1`));
  }
  for (const param of operation.parameters.filter((p) => p.in === 'path')) {
    for (const [label, value] of HOSTILE_PATH) {
      plans.push(() => ({
        ...baseline(),
        label: `path ${param.name} = ${label}`,
        path: fillPath(operation.template, { ...pathValues, [param.name]: value }),
      }));
    }
  }
  for (const param of headerParams) {
    for (const [label, value] of HOSTILE_HEADER) {
      plans.push(() => ({
        ...baseline(),
        label: `header ${param.name}: ${label}`,
        headers: { [param.name]: value },
      }));
    }
  }
  if (operation.body) {
    for (const { path, required } of fieldPaths(document, operation.body)) {
      const at = path.join('.');
      const variant =
        (label: string, value: unknown, mustRefuse: boolean) => (): PlannedRequest => {
          const plan = baseline();
          return {
            ...plan,
            label: `body ${at} = ${label}`,
            mustRefuse,
            nullForOptional: value === null && !required,
            body: setAt(plan.body, path, value),
          };
        };
      for (const [label, value] of UNSTORABLE) {
        plans.push(variant(label, value, true));
      }
      for (const [label, value] of HOSTILE_JSON) {
        plans.push(variant(label, value, false));
      }
    }
    for (const [label, raw] of RAW_BODIES) {
      plans.push(() => ({ ...baseline(), label: `body: ${label}`, body: undefined, rawBody: raw }));
    }
  }
  return plans;
}

/** The same request under another spelling of its path: upper case, a trailing slash. */
export function pathVariants(path: string): string[] {
  const [pathname, query] = path.split('?');
  const suffix = query === undefined ? '' : `?${query}`;
  return [`${pathname.toUpperCase()}${suffix}`, `${pathname}/${suffix}`];
}
