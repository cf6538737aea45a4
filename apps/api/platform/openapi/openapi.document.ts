import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ErrorCode } from '#app/errors';
import { ADMIN_SECURITY, PARTNER_SECURITY, WIDGET_SECURITY } from './security-schemes.js';
import {
  errorEnvelopeSchema,
  errorResponses,
  TRANSPORT_ERRORS,
} from '../contract/api-errors.decorator.js';
import {
  addLinks,
  declareResponseHeaders,
  describeWebhooks,
  nameErrorCodes,
  strictenRequests,
} from './contract.js';

type Json = unknown;
type SecuritySchemeObject = NonNullable<Parameters<DocumentBuilder['addBearerAuth']>[0]>;

interface Operation {
  security?: unknown[];
  tags?: string[];
  responses: Record<string, unknown>;
}

const CREDENTIALS =
  'Authenticate with `Authorization: Bearer <public_key>:<secret>`. Live credentials look like ' +
  '`pk_live_` + 32 lowercase hex and `sk_live_` + 48 lowercase hex; test credentials like ' +
  '`pk_test_…:sk_test_…`.';

const SECURITY_SCHEMES: Record<string, SecuritySchemeObject> = {
  [PARTNER_SECURITY]: { type: 'http', scheme: 'bearer', description: CREDENTIALS },
  [ADMIN_SECURITY]: {
    type: 'http',
    scheme: 'bearer',
    description: 'The operator token (`ADMIN_TOKEN`).',
  },
  [WIDGET_SECURITY]: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Widget-Key',
    description:
      'A publishable widget key (`wk_live_…`, `wk_test_…`), accepted only from its allowed origins.',
  },
};

const PARTNER_DESCRIPTION =
  'Server-to-server REST API for non-custodial crypto-to-crypto swaps.\n\n' +
  `${CREDENTIALS}\n\n` +
  '**Test mode.** A test credential uses the same endpoints: its quotes and swaps go to a ' +
  'sandbox, every swap shows `livemode: false`, test swaps earn nothing, and the test helpers ' +
  '(`/v1/test_helpers/*`, test credentials only; a live one gets 403 `test_mode_only`) drive a ' +
  'test swap through each status. A test credential works while your organization is still under ' +
  'review. Each mode sees only its own swaps.\n\n' +
  'Every non-2xx answer is the error envelope; each operation lists the codes it can answer.';

const PARTNER_TAGS: [string, string][] = [
  ['catalogue', 'Currencies, pairs and address validation.'],
  ['quotes', 'Estimated (float) and fixed-rate quotes.'],
  ['swaps', 'Create swaps, read them and follow their status.'],
  [
    'test helpers',
    'Test mode only (`pk_test_` credentials): addresses to test with, and moving a test swap ' +
      'through its lifecycle.',
  ],
  ['public', 'Unauthenticated prices for browsers.'],
  [
    'events',
    "The event feed and a swap's history: every swap change as an Event, in a stable order, " +
      'kept at least 30 days.',
  ],
  [
    'webhook endpoints',
    'Where the service pushes events: URLs of yours, each with its signing secret, its ' +
      'delivery attempts and a ping.',
  ],
  [
    'webhooks',
    'What the service sends to your endpoints: one signed `POST` per event (Standard Webhooks).',
  ],
  ['health', 'Liveness and readiness probes for load balancers and orchestrators.'],
];

const ADMIN_TAGS: [string, string][] = [
  [
    'admin',
    'Organizations, credentials, earnings, the audit log, legacy imports, any swap, and the ' +
      'liquidity providers routing uses.',
  ],
];

const WIDGET_TAGS: [string, string][] = [
  [
    'widget',
    'What the swap widget calls from the browser with its publishable key: the catalogue, ' +
      'quotes, swap creation and the swap by its status token.',
  ],
];

const WIDGET_DESCRIPTION =
  'The browser API of the swap widget. Send the widget key as `X-Widget-Key`; requests are ' +
  "accepted from the key's allowed origins (with CORS headers) and from the hosted widget page " +
  "itself; any other origin gets 403 `origin_not_allowed`. Swaps belong to the key's " +
  'organization and mode, appear in its partner API, and are read back with their ' +
  '`statusToken` (`X-Swap-Token`). Every non-2xx answer is the error envelope.';

/** Anyone may use, change and share the document to build clients. */
const LICENSE = { name: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/' };

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

/**
 * A path parameter that is not valid percent-encoding (`%C0%80`) is refused before routing with
 * 400 `invalid_request`, so every operation with one declares that code under 400.
 */
function declarePathDecoding(path: string, operation: Operation): void {
  if (!path.includes('{')) {
    return;
  }
  const existing = operation.responses['400'] as
    { content?: { 'application/json'?: { schema?: Json } } } | undefined;
  const schema = existing?.content?.['application/json']?.schema as
    { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } } | undefined;
  const codes = (schema?.properties?.error?.properties?.code?.enum ?? []) as ErrorCode[];
  if (codes.includes(ErrorCode.InvalidRequest)) {
    return;
  }
  const [{ description, schema: merged, examples }] = errorResponses([
    ...codes,
    ErrorCode.InvalidRequest,
  ]);
  operation.responses['400'] = {
    description,
    content: { 'application/json': { schema: merged, examples } },
  };
}

/** Every error answer: the statuses the operation declares, what any route may answer, the rest. */
function completeResponses(operation: Operation): void {
  for (const { status, description, schema, examples } of errorResponses(TRANSPORT_ERRORS)) {
    operation.responses[String(status)] ??= {
      description,
      content: { 'application/json': { schema, examples } },
    };
  }
  operation.responses.default = {
    description: 'Any other error (500 `internal`), in the error envelope.',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
  };
  operation.security ??= [];
}

/** The component schemas `node` refers to, transitively. */
function referencedSchemas(node: Json, schemas: Record<string, Json>, found: Set<string>): void {
  if (Array.isArray(node)) {
    node.forEach((item) => referencedSchemas(item, schemas, found));
    return;
  }
  if (node === null || typeof node !== 'object') {
    return;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') {
      const name = value.replace('#/components/schemas/', '');
      if (!found.has(name)) {
        found.add(name);
        referencedSchemas(schemas[name], schemas, found);
      }
    } else {
      referencedSchemas(value, schemas, found);
    }
  }
}

/** The part of `full` whose paths `keep` selects, with only the components those paths use. */
function subset(
  full: OpenAPIObject,
  keep: (path: string) => boolean,
  info: { title: string; description: string },
  tags: [string, string][],
  security: string,
  withWebhooks = false,
): OpenAPIObject {
  const scheme = SECURITY_SCHEMES[security];
  const paths = Object.fromEntries(Object.entries(full.paths).filter(([path]) => keep(path)));
  const webhooks = withWebhooks ? (full as { webhooks?: Json }).webhooks : undefined;
  const schemas = (full.components?.schemas ?? {}) as Record<string, Json>;
  const used = new Set<string>();
  referencedSchemas([paths, webhooks ?? null], schemas, used);
  const document: OpenAPIObject = {
    openapi: full.openapi,
    info: { ...full.info, ...info, license: LICENSE },
    servers: [{ url: '/', description: 'The server that serves this document.' }],
    tags: tags.map(([name, description]) => ({ name, description })),
    paths,
    components: {
      securitySchemes: { [security]: scheme },
      headers: Object.fromEntries(
        Object.entries(full.components?.headers ?? {}).filter(([name]) =>
          JSON.stringify([paths, webhooks ?? null]).includes(`"#/components/headers/${name}"`),
        ),
      ),
      schemas: Object.fromEntries(
        Object.entries(schemas).filter(([name]) => used.has(name)),
      ) as never,
    },
  };
  if (webhooks) {
    (document as { webhooks?: Json }).webhooks = webhooks;
  }
  addLinks(document);
  return document;
}

export interface OpenApiDocuments {
  /** `/v1/openapi.json`: what partners call, `/health` and `/ready`. */
  partner: OpenAPIObject;
  /** `/admin/openapi.json`: the operator endpoints, behind the admin token. */
  admin: OpenAPIObject;
  /** `/widget-api/v1/openapi.json`: the swap widget's browser API. */
  widget: OpenAPIObject;
}

/** The API descriptions, generated from the controllers and DTOs of the running app. */
export function buildOpenApiDocuments(app: INestApplication): OpenApiDocuments {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Swap Partners API')
    .setVersion('1.0.0')
    .addBearerAuth(SECURITY_SCHEMES[PARTNER_SECURITY], PARTNER_SECURITY)
    .addBearerAuth(SECURITY_SCHEMES[ADMIN_SECURITY], ADMIN_SECURITY)
    .addApiKey(SECURITY_SCHEMES[WIDGET_SECURITY], WIDGET_SECURITY)
    .build();
  const generated = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) =>
      `${controller.replace(/Controller$/, '')}_${method}`,
  });
  generated.components ??= {};
  generated.components.schemas = {
    ...generated.components.schemas,
    ErrorEnvelope: errorEnvelopeSchema() as never,
  };
  for (const [path, item] of Object.entries(generated.paths)) {
    for (const operation of Object.values(item) as Operation[]) {
      declarePathDecoding(path, operation);
      completeResponses(operation);
    }
  }
  const full = toOpenApi31(generated) as OpenAPIObject;
  strictenRequests(full, app);
  nameErrorCodes(full);
  declareResponseHeaders(full);
  describeWebhooks(full);
  const isAdmin = (path: string) => path.startsWith('/admin/');
  const isWidget = (path: string) => path.startsWith('/widget-api/');
  return {
    partner: subset(
      full,
      (path) => !isAdmin(path) && !isWidget(path),
      { title: 'Swap Partners API', description: PARTNER_DESCRIPTION },
      PARTNER_TAGS,
      PARTNER_SECURITY,
      true,
    ),
    admin: subset(
      full,
      isAdmin,
      {
        title: 'Swap Partners API: operator endpoints',
        description:
          'Manage partner organizations and their credentials, read earnings and the audit log. ' +
          'Authenticate with `Authorization: Bearer <ADMIN_TOKEN>`. Every non-2xx answer is ' +
          'the error envelope.',
      },
      ADMIN_TAGS,
      ADMIN_SECURITY,
    ),
    widget: subset(
      full,
      isWidget,
      { title: 'Swap Partners API: swap widget', description: WIDGET_DESCRIPTION },
      WIDGET_TAGS,
      WIDGET_SECURITY,
    ),
  };
}
