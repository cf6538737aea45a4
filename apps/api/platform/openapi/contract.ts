import type { INestApplication } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { EVENT_ID, PING_EVENT_TYPE } from '#app/events';
import { WEBHOOK_ENDPOINT_ID } from '#app/webhooks';
import {
  derivedProperties,
  type JsonSchema,
  routeDtos,
  strictBodySchema,
  strictQuerySchema,
} from './request-schemas.js';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: JsonSchema;
}

interface Response {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema: JsonSchema }>;
  links?: Record<string, unknown>;
}

interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, Response>;
}

function operations(document: OpenAPIObject): [string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.values(item as Record<string, Operation>).map((op): [string, Operation] => [path, op]),
  );
}

function schemas(document: OpenAPIObject): Record<string, JsonSchema> {
  document.components ??= {};
  document.components.schemas ??= {};
  return document.components.schemas as Record<string, JsonSchema>;
}

/**
 * Request bodies and query parameters of the partner routes exactly as strict as the validation
 * pipe, from the DTOs' own validators (request-schemas.ts). The operator routes' inputs are shared
 * with the CLI and transform some values (a number fee becomes a string) before validating, so
 * they keep their documented shape and only gain `additionalProperties: false`, which the pipe
 * enforces for every body.
 */
export function strictenRequests(document: OpenAPIObject, app: INestApplication): void {
  const dtos = routeDtos(app);
  const components = schemas(document);
  for (const [path, operation] of operations(document)) {
    const route = dtos.get(operation.operationId ?? '');
    const partner = path.startsWith('/v1/');
    if (route?.body) {
      const name = route.body.name;
      if (components[name]) {
        components[name] = partner
          ? strictBodySchema(route.body, components[name])
          : { ...components[name], additionalProperties: false };
      }
    }
    if (route?.query && partner) {
      const derived = derivedProperties(route.query);
      for (const parameter of operation.parameters ?? []) {
        const property = parameter.in === 'query' ? derived.get(parameter.name) : undefined;
        if (property) {
          parameter.schema = strictQuerySchema(property, parameter.schema);
          parameter.required = property.required;
        }
      }
    }
  }
}

function pascal(operationId: string): string {
  return operationId
    .split(/[_\s]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

function codesOf(response: Response): string[] {
  const schema = response.content?.['application/json']?.schema as
    { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } } | undefined;
  return schema?.properties?.error?.properties?.code?.enum ?? [];
}

/**
 * Each operation's error codes as one named enum (`<Operation>ErrorCode`), so a client can switch
 * over exactly what one call can answer; its `default` answer is the envelope with that enum.
 */
export function nameErrorCodes(document: OpenAPIObject): void {
  const components = schemas(document);
  const envelope = components.ErrorEnvelope as {
    properties: { error: { properties: Record<string, JsonSchema>; required: string[] } };
  };
  for (const [, operation] of operations(document)) {
    if (!operation.operationId) {
      continue;
    }
    const codes = new Set<string>(['internal']);
    for (const [status, response] of Object.entries(operation.responses)) {
      if (/^[45]\d\d$/.test(status)) {
        codesOf(response).forEach((code) => codes.add(code));
      }
    }
    const name = pascal(operation.operationId);
    components[`${name}ErrorCode`] = {
      type: 'string',
      description: `Every \`error.code\` that \`${operation.operationId}\` can answer.`,
      enum: [...codes].sort(),
    };
    const error = structuredClone(envelope.properties.error);
    error.properties.code = {
      $ref: `#/components/schemas/${name}ErrorCode`,
    };
    components[`${name}Error`] = {
      type: 'object',
      description: `An error answer of \`${operation.operationId}\`.`,
      required: ['error'],
      properties: { error },
    };
    operation.responses.default = {
      ...operation.responses.default,
      content: {
        'application/json': { schema: { $ref: `#/components/schemas/${name}Error` } },
      },
    };
  }
}

const HEADERS: Record<string, { description: string; schema: JsonSchema; required?: boolean }> = {
  'X-Request-Id': {
    description:
      "The request's id: yours when you sent a valid `X-Request-Id` (≤ 128 of `[A-Za-z0-9._-]`), " +
      'else a new one. Quote it when you ask for support.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,128}$' },
    required: true,
  },
  'RateLimit-Limit': {
    description: 'Requests allowed in the window of the limit nearest to exhaustion.',
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in that window.',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': {
    description: 'Seconds until that window resets.',
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Policy': {
    description: 'That limit as `<limit>;w=<window seconds>`, e.g. `30;w=1`.',
    schema: { type: 'string', pattern: '^\\d+;w=\\d+$' },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying (`retry_after_ms`, rounded up).',
    schema: { type: 'integer', minimum: 1 },
    required: true,
  },
  'Idempotent-Replayed': {
    description:
      'Present, `true`, when the answer replays the swap this `Idempotency-Key` created.',
    schema: { type: 'string', enum: ['true'] },
  },
};

const RATE_LIMIT_HEADERS = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
];

/**
 * Every response header the service sends, declared once under `components.headers` and
 * referenced: the request id on every answer, the `RateLimit-*` headers on metered routes (those
 * that can answer 429), `Retry-After` on 429 and `Idempotent-Replayed` on a swap replay.
 */
export function declareResponseHeaders(document: OpenAPIObject): void {
  document.components ??= {};
  document.components.headers = { ...HEADERS };
  const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
  for (const [path, operation] of operations(document)) {
    const metered = operation.responses['429'] !== undefined;
    for (const [status, response] of Object.entries(operation.responses)) {
      const headers: Record<string, unknown> = { 'X-Request-Id': ref('X-Request-Id') };
      if (metered) {
        RATE_LIMIT_HEADERS.forEach((name) => (headers[name] = ref(name)));
      }
      if (status === '429') {
        headers['Retry-After'] = ref('Retry-After');
      }
      if (path === '/v1/swaps' && status === '201') {
        headers['Idempotent-Replayed'] = ref('Idempotent-Replayed');
      }
      response.headers = headers;
    }
  }
}

/** Where one operation's answer feeds another's input (OpenAPI links). */
const LINKS: Record<string, Record<string, { operationId: string; parameters: object }>> = {
  Swaps_create: {
    GetSwap: { operationId: 'Swaps_get', parameters: { id: '$response.body#/swap/id' } },
    ListSwapEvents: {
      operationId: 'Events_forSwap',
      parameters: { id: '$response.body#/swap/id' },
    },
    DepositToTestSwap: {
      operationId: 'TestHelpers_deposit',
      parameters: { id: '$response.body#/swap/id' },
    },
    ForceTestSwapStatus: {
      operationId: 'TestHelpers_forceStatus',
      parameters: { id: '$response.body#/swap/id' },
    },
  },
  Swaps_get: {
    ListSwapEvents: {
      operationId: 'Events_forSwap',
      parameters: { id: '$response.body#/swap/id' },
    },
  },
  TestHelpers_deposit: {
    GetSwap: { operationId: 'Swaps_get', parameters: { id: '$response.body#/swap/id' } },
  },
  TestHelpers_forceStatus: {
    GetSwap: { operationId: 'Swaps_get', parameters: { id: '$response.body#/swap/id' } },
  },
  WebhookEndpoints_create: Object.fromEntries(
    [
      ['GetWebhookEndpoint', 'WebhookEndpoints_get'],
      ['UpdateWebhookEndpoint', 'WebhookEndpoints_update'],
      ['PingWebhookEndpoint', 'WebhookEndpoints_ping'],
      ['RotateWebhookEndpointSecret', 'WebhookEndpoints_rotateSecret'],
      ['ListWebhookDeliveries', 'WebhookEndpoints_deliveries'],
      ['DeleteWebhookEndpoint', 'WebhookEndpoints_delete'],
    ].map(([name, operationId]) => [
      name,
      { operationId, parameters: { id: '$response.body#/webhookEndpoint/id' } },
    ]),
  ),
  AdminOrganizations_create: Object.fromEntries(
    [
      ['GetOrganization', 'AdminOrganizations_get'],
      ['UpdateOrganization', 'AdminOrganizations_update'],
      ['IssueCredential', 'AdminCredentials_issue'],
      ['ListCredentials', 'AdminCredentials_list'],
      ['GetEarnings', 'AdminEarnings_get'],
      ['ListWebhookEndpoints', 'AdminWebhookEndpoints_list'],
      ['CreateWidgetKey', 'AdminWidgetKeys_create'],
      ['ListWidgetKeys', 'AdminWidgetKeys_list'],
      ['InviteDashboardUser', 'AdminDashboardUsers_invite'],
      ['ListDashboardUsers', 'AdminDashboardUsers_list'],
    ].map(([name, operationId]) => [
      name,
      { operationId, parameters: { id: '$response.body#/organization/id' } },
    ]),
  ),
  AdminWidgetKeys_create: {
    RevokeWidgetKey: {
      operationId: 'AdminWidgetKeys_revoke',
      parameters: { key: '$response.body#/widgetKey/key' },
    },
  },
  AdminCredentials_issue: {
    RevealCredential: {
      operationId: 'AdminCredentials_reveal',
      parameters: { publicKey: '$response.body#/credential/publicKey' },
    },
    RevokeCredential: {
      operationId: 'AdminCredentials_revoke',
      parameters: { publicKey: '$response.body#/credential/publicKey' },
    },
  },
};

/** Adds the links whose both ends are in `document` (each document keeps its own). */
export function addLinks(document: OpenAPIObject): void {
  const ids = new Set(operations(document).map(([, op]) => op.operationId));
  for (const [, operation] of operations(document)) {
    const links = LINKS[operation.operationId ?? ''];
    if (!links) {
      continue;
    }
    const success = Object.keys(operation.responses).find((status) => status.startsWith('2'));
    const kept = Object.entries(links).filter(([, link]) => ids.has(link.operationId));
    if (success && kept.length > 0) {
      operation.responses[success].links = Object.fromEntries(
        kept.map(([name, link]) => [
          name,
          { ...link, description: `Call \`${link.operationId}\` with this answer's id.` },
        ]),
      );
    }
  }
}

const WEBHOOK_HEADERS: (Parameter & { description: string })[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event id: the same on every retry of one event, so dedupe on it.',
    schema: { type: 'string', pattern: EVENT_ID.source },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'When this attempt was signed, in Unix seconds; refuse one far from your clock.',
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Space-separated `v1,<base64 HMAC-SHA256>` signatures of `<webhook-id>.<webhook-timestamp>.<body>` ' +
      'under the endpoint secret (two during the 24 h after a rotation): Standard Webhooks.',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
  },
];

function eventSchema(type: string, description: string, data: JsonSchema): JsonSchema {
  return {
    type: 'object',
    description,
    required: ['id', 'type', 'createdAt', 'livemode', 'data'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: EVENT_ID.source, example: 'evt_3f2a9c0d1e4b5a6978c1d2e3' },
      type: { type: 'string', enum: [type] },
      createdAt: { type: 'string', format: 'date-time' },
      livemode: { type: 'boolean' },
      data,
    },
  };
}

const WEBHOOK_EVENTS: [string, string, string, string][] = [
  [
    'swap.created',
    'SwapCreatedEvent',
    'A swap was created',
    'Sent once per swap, right after it is created; `data.previousStatus` is null.',
  ],
  [
    'swap.status_changed',
    'SwapStatusChangedEvent',
    'A swap changed status',
    'Sent each time a swap moves to another status; `data.previousStatus` is the one it left.',
  ],
  [
    PING_EVENT_TYPE,
    'EndpointPingEvent',
    'A ping',
    'Sent by `POST /v1/webhook_endpoints/{id}/ping` only: never stored, never in the feed, never ' +
      'retried. `data.webhookEndpointId` is the endpoint pinged.',
  ],
];

/**
 * The webhooks the service sends (OpenAPI 3.1 `webhooks`): one per event type, with the
 * Standard Webhooks headers, the typed event body, and what the receiver should answer.
 */
export function describeWebhooks(document: OpenAPIObject): void {
  const components = schemas(document);
  const swapData: JsonSchema = { $ref: '#/components/schemas/EventDataResource' };
  components.SwapCreatedEvent = eventSchema('swap.created', 'A swap was created.', swapData);
  components.SwapStatusChangedEvent = eventSchema(
    'swap.status_changed',
    'A swap changed status.',
    swapData,
  );
  components.EndpointPingEvent = eventSchema(PING_EVENT_TYPE, 'A ping of one endpoint.', {
    type: 'object',
    required: ['webhookEndpointId'],
    additionalProperties: false,
    properties: {
      webhookEndpointId: { type: 'string', pattern: WEBHOOK_ENDPOINT_ID.source },
    },
  });
  (document as { webhooks?: object }).webhooks = Object.fromEntries(
    WEBHOOK_EVENTS.map(([type, name, summary, description]) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace('.', '_')}`,
          tags: ['webhooks'],
          summary,
          description:
            `${description} A \`POST\` to each enabled endpoint of your organization in the ` +
            "event's mode that subscribes to the type (the ping: to the endpoint pinged). Verify " +
            'the signature on the raw body before trusting it.',
          security: [],
          parameters: WEBHOOK_HEADERS,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
          },
          responses: {
            '200': {
              description:
                'Any 2xx within 10 s acknowledges the event; the body is ignored (64 KiB are read).',
            },
            '400': {
              description:
                'Any other answer (a signature that does not verify, say), a timeout or a ' +
                'redirect: the event is retried with backoff for 3 days.',
            },
          },
        },
      },
    ]),
  );
}
