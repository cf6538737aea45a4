import type { operations } from './schema.js';

/** An operation of the API by its OpenAPI `operationId`, e.g. `'Swaps_create'`. */
export type OperationId = keyof operations;

/** The `error.code` of an operation's JSON answers: the union the document lists for it. */
type CodesOf<Responses> = {
  [Status in keyof Responses]: Responses[Status] extends {
    content: { 'application/json': { error: { code: infer Code } } };
  }
    ? Code
    : never;
}[keyof Responses];

/** Every `error.code` that `Operation` can answer (its `<Operation>ErrorCode` in the document). */
export type ErrorCodeOf<Operation extends OperationId> = CodesOf<
  operations[Operation]['responses']
>;

/** Every `error.code` the API answers with: comparing `code` with a misspelt one does not compile. */
export type ErrorCode = { [Operation in OperationId]: ErrorCodeOf<Operation> }[OperationId];

/** Every error type the API answers with (`error.type`). */
export type ErrorType =
  | 'validation_error'
  | 'authentication_error'
  | 'authorization_error'
  | 'not_found'
  | 'conflict'
  | 'unprocessable'
  | 'rate_limit_error'
  | 'upstream_error'
  | 'internal_error';

/** The `error` of the envelope every non-2xx answer carries. */
export interface Envelope {
  type: ErrorType;
  code: ErrorCode;
  message: string;
  param: string | null;
  upstream_code: number | null;
  retry_after_ms: number | null;
}

/**
 * An answer that was not 2xx, with the envelope's fields. `code` is the one to branch on: typed
 * as every code of the API, and as the codes of one operation after `isErrorOf`.
 */
export class SwapPartnersError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly code: ErrorCode;
  /** The operation that answered (its `operationId`), or null for an answer made up locally. */
  readonly operation: OperationId | null;
  readonly param: string | null;
  readonly upstreamCode: number | null;
  readonly retryAfterMs: number | null;
  /** The `X-Request-Id` of the answer: quote it when you ask for support. */
  readonly requestId: string | null;
  /** On a failed `swaps.create`: the key it was sent with (retry with it after a 429 only). */
  idempotencyKey?: string;

  constructor(
    status: number,
    error: Envelope,
    requestId: string | null,
    operation: OperationId | null = null,
  ) {
    super(error.message);
    this.name = new.target.name;
    this.status = status;
    this.type = error.type;
    this.code = error.code;
    this.operation = operation;
    this.param = error.param;
    this.upstreamCode = error.upstream_code;
    this.retryAfterMs = error.retry_after_ms;
    this.requestId = requestId;
  }
}

/** 400, 405, 408, 413, 415, 431: the request is wrong; fix it before sending it again. */
export class ValidationError extends SwapPartnersError {}
/** 401: the credential is missing, malformed, unknown, wrong or revoked. */
export class AuthenticationError extends SwapPartnersError {}
/** 403: the organization may not do this (under review, suspended, live credential on a test helper). */
export class AuthorizationError extends SwapPartnersError {}
/** 404. */
export class NotFoundError extends SwapPartnersError {}
/** 409: a key in use or bound to another body, an expired rate, a state that forbids the call. */
export class ConflictError extends SwapPartnersError {}
/** 422 `exchange_not_processable`: this swap cannot be routed; do not retry. */
export class UnprocessableError extends SwapPartnersError {}
/** 429, after the client's own retries: wait `retryAfterMs`. */
export class RateLimitError extends SwapPartnersError {}
/** 502, 503 from the liquidity provider. */
export class UpstreamError extends SwapPartnersError {}
/** 500, or 503 `internal` (a dependency of the service is down). */
export class InternalError extends SwapPartnersError {}

const BY_TYPE: Record<ErrorType, typeof SwapPartnersError> = {
  validation_error: ValidationError,
  authentication_error: AuthenticationError,
  authorization_error: AuthorizationError,
  not_found: NotFoundError,
  conflict: ConflictError,
  unprocessable: UnprocessableError,
  rate_limit_error: RateLimitError,
  upstream_error: UpstreamError,
  internal_error: InternalError,
};

/** The request never got an answer (connection refused, reset, DNS, timeout). */
export class ConnectionError extends Error {
  /** On a failed `swaps.create`: the key it was sent with; sending it again is safe. */
  idempotencyKey?: string;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConnectionError';
  }
}

function isEnvelope(body: unknown): body is { error: Envelope } {
  const error = (body as { error?: Partial<Envelope> } | null)?.error;
  return typeof error?.type === 'string' && typeof error.code === 'string';
}

/**
 * Whether `error` is `operation`'s answer, narrowing its `code` to that operation's codes:
 * `if (isErrorOf(error, 'Swaps_create') && error.code === 'rate_expired') { … }`.
 */
export function isErrorOf<Operation extends OperationId>(
  error: unknown,
  operation: Operation,
): error is SwapPartnersError & {
  readonly code: ErrorCodeOf<Operation>;
  readonly operation: Operation;
} {
  return error instanceof SwapPartnersError && error.operation === operation;
}

/** The typed error for a non-2xx answer; an answer that is not the envelope is an InternalError. */
export function toError(
  response: Response,
  body: unknown,
  operation: OperationId | null = null,
): SwapPartnersError {
  const requestId = response.headers.get('x-request-id');
  if (isEnvelope(body)) {
    const ErrorClass = BY_TYPE[body.error.type] ?? SwapPartnersError;
    return new ErrorClass(response.status, body.error, requestId, operation);
  }
  return new InternalError(
    response.status,
    {
      type: 'internal_error',
      code: 'internal',
      message: `HTTP ${response.status} without an error envelope.`,
      param: null,
      upstream_code: null,
      retry_after_ms: null,
    },
    requestId,
    operation,
  );
}
