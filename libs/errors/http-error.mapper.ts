import { HttpException } from '@nestjs/common';
import { AppError } from './app.error.js';
import { ErrorCode } from './error-code.js';

interface BodyParserError {
  type?: unknown;
  status?: unknown;
}

function isBodyParserError(error: unknown): error is BodyParserError & Error {
  return error instanceof Error && typeof (error as BodyParserError).type === 'string';
}

/**
 * Express-level middleware marks client errors with an http-errors 4xx `status` but not always a
 * `type`: body-parser passes a failed decompression (a body that does not match its
 * `Content-Encoding`) on that way. They are the client's fault, never a 500.
 */
function isUntypedClientError(error: unknown): boolean {
  const status = error instanceof Error ? (error as BodyParserError).status : undefined;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * Network and Postgres "connection" class errors, and timeouts (57014: cancelled by
 * `statement_timeout`; pg's read timeout: no answer at all): the database is unreachable or
 * overloaded, not the request bad.
 */
const DATABASE_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  '57014',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
]);
/**
 * SQLSTATE class 53, insufficient resources (53300 too many clients, 53200 out of memory, 53100
 * disk full): the server refused this request for now, and the next one may pass.
 */
const INSUFFICIENT_RESOURCES = /^53[0-9A-Z]{3}$/;
const DATABASE_DOWN_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connect ECONNREFUSED|Query read timeout/i;

function sqlState(error: unknown): unknown {
  const e = error as { code?: unknown; driverError?: { code?: unknown } } | null;
  return e?.driverError?.code ?? e?.code;
}

function isOutOfResources(error: unknown): boolean {
  const code = sqlState(error);
  return typeof code === 'string' && INSUFFICIENT_RESOURCES.test(code);
}

function isDatabaseUnavailable(error: unknown): boolean {
  const code = sqlState(error);
  const message = (error as { message?: unknown } | null)?.message;
  return (
    (typeof code === 'string' && DATABASE_DOWN_CODES.has(code)) ||
    (typeof message === 'string' && DATABASE_DOWN_MESSAGE.test(message))
  );
}

/**
 * Turns anything thrown while serving a request into an AppError. `null` means "unexpected":
 * the caller logs it and answers 500 `internal`.
 */
export function toAppError(error: unknown): AppError | null {
  if (error instanceof AppError) {
    return error;
  }
  if (isBodyParserError(error)) {
    switch (error.type) {
      case 'entity.parse.failed':
        return new AppError(ErrorCode.InvalidJson, 'The request body is not valid JSON.');
      case 'entity.too.large':
        return new AppError(ErrorCode.PayloadTooLarge, 'The request body exceeds 64 KiB.');
      case 'charset.unsupported':
      case 'encoding.unsupported':
        return new AppError(ErrorCode.UnsupportedMediaType, 'Unsupported body encoding.');
      default:
        return new AppError(ErrorCode.InvalidRequest, 'The request body could not be read.');
    }
  }
  if (isOutOfResources(error)) {
    return new AppError(
      ErrorCode.ServiceUnavailable,
      'The service is temporarily unavailable. Please retry shortly.',
      { cause: error, retryAfterMs: 1000 },
    );
  }
  if (isDatabaseUnavailable(error)) {
    return new AppError(
      ErrorCode.ServiceUnavailable,
      'The service is temporarily unavailable. Please retry shortly.',
      { cause: error },
    );
  }
  if (isUntypedClientError(error) && !(error instanceof HttpException)) {
    return new AppError(
      ErrorCode.InvalidRequest,
      'The request body could not be read; check its Content-Encoding.',
    );
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (status === 404 || status === 405) {
      return new AppError(ErrorCode.NotFound, 'No such resource.');
    }
    if (status === 413) {
      return new AppError(ErrorCode.PayloadTooLarge, 'The request body exceeds 64 KiB.');
    }
    if (status >= 400 && status < 500) {
      return new AppError(ErrorCode.InvalidRequest, 'The request is invalid.');
    }
  }
  return null;
}

export const INTERNAL_ERROR_MESSAGE = 'An internal error occurred. Please retry later.';
