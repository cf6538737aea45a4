import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import request from 'supertest';

type Schema = Record<string, unknown>;

interface OpenApiDocument {
  openapi: string;
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>
  >;
  components: { schemas: Record<string, Schema> };
}

/**
 * Validates responses against the api's own served OpenAPI document: the schema of the
 * operation's documented status, or its `default` (the error envelope) for other statuses.
 */
export class OpenApiValidator {
  private constructor(
    private readonly document: OpenApiDocument,
    private readonly ajv: Ajv2020,
  ) {}

  /** The partner document, or another one (`/admin/openapi.json` with the admin token). */
  static async load(
    baseUrl: string,
    documentPath = '/v1/openapi.json',
    authorization?: string,
  ): Promise<OpenApiValidator> {
    const get = request(baseUrl).get(documentPath);
    const res = await (
      authorization === undefined ? get : get.set('Authorization', authorization)
    ).expect(200);
    const document = res.body as OpenApiDocument;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addSchema({ $id: 'openapi', components: document.components });
    return new OpenApiValidator(document, ajv);
  }

  get version(): string {
    return this.document.openapi;
  }

  /** Throws with ajv's errors when `body` does not match. `path` is the templated path. */
  check(method: string, path: string, status: number, body: unknown): void {
    const operation = this.document.paths[path]?.[method.toLowerCase()];
    if (!operation) {
      throw new Error(`${method} ${path} is not in the OpenAPI document`);
    }
    const response = operation.responses[String(status)] ?? operation.responses.default;
    const schema = response?.content?.['application/json']?.schema;
    if (!schema) {
      throw new Error(`${method} ${path} documents no JSON body for ${status}`);
    }
    const rewritten = JSON.parse(
      JSON.stringify(schema).replace(/"#\/components\//g, '"openapi#/components/'),
    ) as Schema;
    const validate = this.ajv.compile(rewritten);
    if (!validate(body)) {
      throw new Error(
        `${method} ${path} ${status} does not match the document: ${this.ajv.errorsText(validate.errors)}`,
      );
    }
  }
}
