import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ERROR_TABLE } from '#app/errors';

type Json = unknown;

const ERROR_ENVELOPE = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['type', 'code', 'message', 'param', 'upstream_code', 'retry_after_ms'],
      properties: {
        type: { type: 'string', enum: [...new Set(Object.values(ERROR_TABLE).map((e) => e.type))] },
        code: { type: 'string' },
        message: { type: 'string' },
        param: { type: ['string', 'null'] },
        upstream_code: { type: ['integer', 'null'] },
        retry_after_ms: { type: ['integer', 'null'] },
      },
    },
  },
};

/** OpenAPI 3.0's `nullable: true` becomes 3.1's `type: [T, 'null']`. */
function toOpenApi31(node: Json): Json {
  if (Array.isArray(node)) {
    return node.map(toOpenApi31);
  }
  if (node === null || typeof node !== 'object') {
    return node;
  }
  const copy: Record<string, Json> = {};
  for (const [key, value] of Object.entries(node)) {
    copy[key] = toOpenApi31(value);
  }
  if (copy.nullable === true) {
    delete copy.nullable;
    if (typeof copy.type === 'string') {
      copy.type = [copy.type, 'null'];
    } else if (copy.allOf || copy.$ref) {
      const { description, ...rest } = copy;
      return { description, anyOf: [rest, { type: 'null' }] };
    }
  }
  return copy;
}

/** The API description served at `/v1/openapi.json`, generated from the controllers and DTOs. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Swap Partners API')
    .setDescription(
      'Server-to-server REST API for non-custodial crypto-to-crypto swaps. Authenticate with ' +
        '`Authorization: Bearer <public_key>:<secret>`. Every non-2xx body is the error envelope.',
    )
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: '<public_key>:<secret>' })
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) =>
      `${controller.replace(/Controller$/, '')}_${method}`,
  });
  document.components ??= {};
  document.components.schemas = {
    ...document.components.schemas,
    ErrorEnvelope: ERROR_ENVELOPE as never,
  };
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(
      pathItem as Record<string, { responses?: Record<string, unknown> }>,
    )) {
      if (operation && typeof operation === 'object' && operation.responses) {
        operation.responses.default = {
          description: 'Error envelope',
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } },
          },
        };
      }
    }
  }
  return toOpenApi31(document) as OpenAPIObject;
}
