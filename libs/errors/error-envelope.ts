import type { Response } from 'express';
import { AppError } from './app.error.js';
import { ErrorType } from './error-code.js';

/** The body of every non-2xx response (spec, Errors). */
export interface ErrorEnvelope {
  error: {
    type: ErrorType;
    code: string;
    message: string;
    param: string | null;
    upstream_code: number | null;
    retry_after_ms: number | null;
  };
}

export function toEnvelope(error: AppError): ErrorEnvelope {
  return {
    error: {
      type: error.type,
      code: error.wireCode,
      message: error.message,
      param: error.param,
      upstream_code: error.upstreamCode,
      retry_after_ms: error.retryAfterMs,
    },
  };
}

/**
 * Writes the envelope; rate-limit errors also carry `Retry-After` in whole seconds (≥ 1). No error
 * is ever cached, even on a route whose successful answers are public (a cached 429 or 502 would
 * be served to every client behind the cache).
 */
export function sendError(res: Response, error: AppError): void {
  res.setHeader('Cache-Control', 'no-store');
  if (error.retryAfterMs !== null) {
    res.setHeader('Retry-After', String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))));
  }
  res.status(error.status).json(toEnvelope(error));
}
