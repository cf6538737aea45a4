import { ApiResponse, DECORATORS } from '@nestjs/swagger';
import { ERROR_TABLE, ErrorCode } from '#app/errors';

/** Where a route handler keeps the error codes declared for it (on the handler function). */
const ERROR_CODES = Symbol('apiErrorCodes');

/**
 * The error envelope (libs/errors): with `types` and `codes`, narrowed to what one response can
 * carry; without, any error (the document's `ErrorEnvelope` component).
 */
export function errorEnvelopeSchema(
  types: readonly string[] = [...new Set(Object.values(ERROR_TABLE).map((e) => e.type))],
  codes?: readonly string[],
): Record<string, unknown> {
  return {
    type: 'object',
    description: 'The body of every non-2xx answer.',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['type', 'code', 'message', 'param', 'upstream_code', 'retry_after_ms'],
        properties: {
          type: { type: 'string', enum: types },
          code: {
            type: 'string',
            description: 'Stable and machine-readable: branch on this.',
            ...(codes ? { enum: codes } : {}),
          },
          message: { type: 'string', description: 'Fit to show to the end user.' },
          param: {
            type: ['string', 'null'],
            description: 'The request field or parameter at fault.',
          },
          upstream_code: {
            type: ['integer', 'null'],
            description: "The provider's own error code, when the provider refused.",
          },
          retry_after_ms: {
            type: ['integer', 'null'],
            description: 'How long to wait before retrying (rate limits).',
          },
        },
      },
    },
  };
}

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
  /** One example answer per wire code, named by it. */
  examples: Record<string, { summary: string; value: unknown }>;
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
    const title = STATUS_TITLES[status] ?? 'Error';
    const examples = Object.fromEntries(
      group.map((code) => {
        const { type, wireCode } = ERROR_TABLE[code];
        const error = {
          type,
          code: wireCode ?? code,
          message: `${title}.`,
          param: null,
          upstream_code: null,
          retry_after_ms: status === 429 ? 1000 : null,
        };
        return [wireCode ?? code, { summary: wireCode ?? code, value: { error } }];
      }),
    );
    const response: ErrorResponse = {
      status,
      examples,
      description: `${title}. \`error.code\` is one of: ${wireCodes
        .map((code) => `\`${code}\``)
        .join(', ')}.`,
      schema: errorEnvelopeSchema(types, wireCodes),
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
