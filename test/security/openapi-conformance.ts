import type { IncomingHttpHeaders } from 'node:http';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { resolve, type OpenApiDocument, type Operation, type Schema } from './openapi-requests.js';

type Json = Record<string, unknown>;

interface HeaderObject {
  required?: boolean;
  schema: Json;
}

interface ResponseObject {
  headers?: Record<string, HeaderObject | { $ref: string }>;
  content?: Record<string, { schema: Json }>;
}

/** What an answer broke of what the document declares for it. */
export class Conformance {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly documents: Json[]) {
    this.ajv = new Ajv2020({ strict: false, allErrors: false });
    (addFormats as unknown as (a: Ajv2020) => void)(this.ajv);
    documents.forEach((document, index) =>
      this.ajv.addSchema({ $id: `doc${index}`, components: document.components }),
    );
  }

  private locate(operation: Operation): {
    response: (status: number) => ResponseObject | null;
    doc: number;
  } {
    const index = this.documents.findIndex(
      (document) =>
        (document.paths as Record<string, Record<string, unknown>>)[operation.template]?.[
          operation.method.toLowerCase()
        ] !== undefined,
    );
    const document = this.documents[index];
    const op = (
      document.paths as Record<
        string,
        Record<string, { responses: Record<string, ResponseObject> }>
      >
    )[operation.template][operation.method.toLowerCase()];
    return {
      doc: index,
      response: (status: number) => op.responses[String(status)] ?? null,
    };
  }

  private validator(doc: number, schema: Json): ValidateFunction {
    const source = JSON.stringify(schema).replace(/"#\/components\//g, `"doc${doc}#/components/`);
    let validate = this.compiled.get(source);
    if (!validate) {
      validate = this.ajv.compile(JSON.parse(source) as Json);
      this.compiled.set(source, validate);
    }
    return validate;
  }

  private header(doc: number, header: HeaderObject | { $ref: string }): HeaderObject {
    if ('$ref' in header) {
      const name = header.$ref.replace('#/components/headers/', '');
      const headers = (this.documents[doc].components as { headers: Record<string, HeaderObject> })
        .headers;
      return headers[name];
    }
    return header;
  }

  /**
   * Schemathesis's response checks: the status is one the operation declares (500 only as
   * `default`), the content type is the declared one, the declared headers are there and valid,
   * and the body matches the declared schema.
   */
  check(
    operation: Operation,
    answer: { status: number; headers: IncomingHttpHeaders; text: string },
  ): string[] {
    const { doc, response: responseFor } = this.locate(operation);
    const response = responseFor(answer.status);
    if (!response) {
      return [`status ${answer.status} is not declared`];
    }
    const problems: string[] = [];
    const declaredType = Object.keys(response.content ?? {})[0];
    const contentType = answer.headers['content-type'];
    if (declaredType === undefined) {
      if (answer.text.length > 0) {
        problems.push(`a body where none is declared: ${answer.text.slice(0, 80)}`);
      }
    } else if (!contentType?.startsWith(declaredType)) {
      problems.push(`content type ${contentType} where ${declaredType} is declared`);
    } else {
      let body: unknown;
      try {
        body = JSON.parse(answer.text);
      } catch {
        problems.push('a body that is not JSON');
      }
      const validate = this.validator(doc, response.content![declaredType].schema);
      if (body !== undefined && !validate(body)) {
        problems.push(
          `body breaks its schema: ${this.ajv.errorsText(validate.errors)}: ${answer.text.slice(0, 160)}`,
        );
      }
    }
    for (const [name, declared] of Object.entries(response.headers ?? {})) {
      const header = this.header(doc, declared);
      const value = answer.headers[name.toLowerCase()];
      if (value === undefined) {
        if (header.required) {
          problems.push(`no ${name} header`);
        }
        continue;
      }
      const typed = header.schema.type === 'integer' ? Number(value) : value;
      const validate = this.validator(doc, header.schema);
      if (!validate(typed)) {
        problems.push(`${name}: ${String(value)} breaks its schema`);
      }
    }
    return problems;
  }
}

// ---- values the schema refuses, and values it accepts -------------------------------------------

function types(schema: Schema): string[] {
  return Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
}

function matches(pattern: string, value: string): boolean {
  return new RegExp(pattern, 'u').test(value);
}

/** One property value the property's schema refuses, with what it breaks. */
export function invalidValues(document: OpenApiDocument, raw: Schema): [string, unknown][] {
  const schema = resolve(document, raw);
  const kinds = types(schema);
  const found: [string, unknown][] = [];
  if (kinds.includes('string')) {
    found.push(['a number for a string', 12345]);
  }
  if (kinds.includes('integer')) {
    found.push(['a fraction for an integer', 1.5], ['text for an integer', 'ten']);
  }
  if (kinds.includes('boolean')) {
    found.push(['text for a boolean', 'yes']);
  }
  if (kinds.includes('array')) {
    found.push(['text for an array', 'x']);
  }
  if (!kinds.includes('null') && kinds.length > 0) {
    found.push(['null', null]);
  }
  if (typeof schema.maxLength === 'number') {
    found.push(['one past maxLength', 'x'.repeat(schema.maxLength + 1)]);
  }
  if (schema.minLength === 1) {
    found.push(['empty', '']);
  }
  if (typeof schema.pattern === 'string') {
    for (const candidate of ['not a match', 'a\u0001b', '-1']) {
      if (!matches(schema.pattern, candidate)) {
        found.push([`${JSON.stringify(candidate)} against its pattern`, candidate]);
        break;
      }
    }
  }
  if (schema.enum) {
    found.push(['outside its enum', 'not-in-the-enum']);
  }
  if (typeof schema.minimum === 'number') {
    found.push(['below minimum', schema.minimum - 1]);
  }
  if (typeof schema.maximum === 'number' && schema.maximum < Number.MAX_SAFE_INTEGER) {
    found.push(['above maximum', schema.maximum + 1]);
  }
  const items = schema.items ? resolve(document, schema.items) : undefined;
  if (items?.enum) {
    found.push(['an item outside its enum', ['not-in-the-enum']]);
  }
  if (schema.minItems === 1) {
    found.push(['no items', []]);
  }
  if (schema.uniqueItems && items?.enum) {
    found.push(['a repeated item', [items.enum[0], items.enum[0]]]);
  }
  return found;
}

/** Property values the schema accepts that a baseline does not send: edges and every enum value. */
export function validValues(document: OpenApiDocument, raw: Schema): [string, unknown][] {
  const schema = resolve(document, raw);
  const kinds = types(schema);
  const found: [string, unknown][] = [];
  for (const value of schema.enum ?? []) {
    found.push([`enum ${JSON.stringify(value)}`, value]);
  }
  if (kinds.includes('null') && !schema.enum) {
    found.push(['null', null]);
  }
  if (kinds.includes('boolean')) {
    found.push(['true', true], ['false', false]);
  }
  if (kinds.includes('integer')) {
    if (typeof schema.minimum === 'number') {
      found.push(['its minimum', schema.minimum]);
    }
    if (typeof schema.maximum === 'number') {
      found.push(['its maximum', schema.maximum]);
    }
  }
  if (kinds.includes('string') && !schema.enum && typeof schema.maxLength === 'number') {
    const long = 'x'.repeat(schema.maxLength);
    if (schema.pattern === undefined || matches(schema.pattern, long)) {
      found.push(['maxLength characters', long]);
    }
    const unicode = 'caf\u00e9 \u{1F600}';
    if (schema.pattern === undefined || matches(schema.pattern, unicode)) {
      found.push(['non-ASCII text', unicode]);
    }
  }
  const items = schema.items ? resolve(document, schema.items) : undefined;
  if (items?.enum) {
    for (const value of items.enum) {
      found.push([`[${JSON.stringify(value)}]`, [value]]);
    }
  }
  return found;
}
