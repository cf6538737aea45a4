import { ApiResponse, DECORATORS } from '@nestjs/swagger';
import { ERROR_TABLE, ErrorCode } from '#app/errors';

/** Where a route handler keeps the error codes declared for it (on the handler function). */
const ERROR_CODES = Symbol('apiErrorCodes');

/** The component every error response refers to; the document builder defines it. */
export const ERROR_ENVELOPE_REF = '#/components/schemas/ErrorEnvelope';

/** Any route: the database or Redis is unreachable (503, wire code `internal`). */
export const DEPENDENCY_ERRORS = [ErrorCode.ServiceUnavailable] as const;

/** Any route: the HTTP server refuses a request whose headers or body arrive too slowly or too big. */
export const TRANSPORT_ERRORS = [ErrorCode.HeadersTooLarge, ErrorCode.RequestTimeout] as const;

/** A route that reads a JSON body: what the body parser and the validation pipe refuse. */
export const JSON_BODY_ERRORS = [
  ErrorCode.InvalidJson,
  ErrorCode.InvalidRequest,
  ErrorCode.PayloadTooLarge,
  ErrorCode.UnsupportedMediaType,
] as const;

/** A route that asks the liquidity provider (directly or for its catalogue). */
export const UPSTREAM_ERRORS = [
  ErrorCode.UpstreamRateLimited,
  ErrorCode.UpstreamNotConfigured,
  ErrorCode.UpstreamBadResponse,
  ErrorCode.UpstreamError,
  ErrorCode.UpstreamUnavailable,
] as const;

const STATUS_TITLES: Record<number, string> = {
  400: 'The request is invalid',
  401: 'Not authenticated',
  403: 'Not allowed',
  404: 'Not found',
  408: 'The request took too long to arrive',
  409: 'Conflict',
  413: 'The body is too large',
  415: 'Unsupported body encoding',
  422: 'The provider cannot process the exchange',
  429: 'Too many requests',
  431: 'The headers are too large',
  500: 'Internal error',
  502: 'The provider answered badly',
  503: 'Temporarily unavailable',
};

function declaredCodes(handler: object): Set<ErrorCode> {
  const existing = Reflect.getOwnMetadata(ERROR_CODES, handler) as Set<ErrorCode> | undefined;
  return existing ?? new Set();
}

/** An OpenAPI response object for one status and the codes it can carry. */
export interface ErrorResponse {
  status: number;
  description: string;
  schema: Record<string, unknown>;
  headers?: Record<string, { description: string; schema: Record<string, unknown> }>;
}

/** One response per status, derived from the code table: its types, wire codes and status. */
export function errorResponses(codes: Iterable<ErrorCode>): ErrorResponse[] {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...codes].sort()) {
    const { status } = ERROR_TABLE[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return [...byStatus.entries()].map(([status, group]) => {
    const wireCodes = [...new Set(group.map((code) => ERROR_TABLE[code].wireCode ?? code))];
    const types = [...new Set(group.map((code) => ERROR_TABLE[code].type))];
    const response: ErrorResponse = {
      status,
      description: `${STATUS_TITLES[status] ?? 'Error'}. \`error.code\` is one of: ${wireCodes
        .map((code) => `\`${code}\``)
        .join(', ')}.`,
      schema: {
        allOf: [
          { $ref: ERROR_ENVELOPE_REF },
          {
            type: 'object',
            properties: {
              error: {
                type: 'object',
                properties: {
                  type: { type: 'string', enum: types },
                  code: { type: 'string', enum: wireCodes },
                },
              },
            },
          },
        ],
      },
    };
    if (status === 429) {
      response.headers = {
        'Retry-After': {
          description: 'Seconds to wait before retrying (`retry_after_ms`, rounded up).',
          schema: { type: 'integer', minimum: 1 },
        },
      };
    }
    return response;
  });
}

function declare(
  prototype: object,
  key: string | symbol,
  descriptor: PropertyDescriptor,
  codes: readonly ErrorCode[],
): void {
  const handler = descriptor.value as object;
  const all = declaredCodes(handler);
  for (const code of codes) {
    all.add(code);
  }
  Reflect.defineMetadata(ERROR_CODES, all, handler);
  const responses = errorResponses(all);
  // Swagger merges a response written twice (descriptions joined): drop this decorator's earlier
  // ones, which the new ones replace with the whole set.
  const written = (Reflect.getMetadata(DECORATORS.API_RESPONSE, handler) ?? {}) as Record<
    string,
    unknown
  >;
  const previous = new Set(responses.map(({ status }) => String(status)));
  Reflect.defineMetadata(
    DECORATORS.API_RESPONSE,
    Object.fromEntries(Object.entries(written).filter(([status]) => !previous.has(status))),
    handler,
  );
  for (const response of responses) {
    (ApiResponse(response) as MethodDecorator)(prototype, key, descriptor);
  }
}

/**
 * The error codes a route can answer with, declared next to the route; the OpenAPI document
 * lists them per status, with status and type taken from the code table (`ERROR_TABLE`).
 *
 * On a method: that route. On a controller: every route of it (class decorators run after the
 * method ones, so both add up). Decorators such as `PartnerApi()` declare what their guards
 * answer, so a route declares only what its own handler and services add.
 */
export function ApiErrors(...codes: readonly ErrorCode[]): ClassDecorator & MethodDecorator {
  return ((target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (key !== undefined && descriptor) {
      declare(target, key, descriptor, codes);
      return descriptor;
    }
    const prototype = (target as { prototype: object }).prototype;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const method = Object.getOwnPropertyDescriptor(prototype, name);
      if (name !== 'constructor' && typeof method?.value === 'function') {
        declare(prototype, name, method, codes);
      }
    }
    return undefined;
  }) as ClassDecorator & MethodDecorator;
}
