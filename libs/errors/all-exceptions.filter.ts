import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError } from './app.error.js';
import { ErrorCode } from './error-code.js';
import { sendError } from './error-envelope.js';
import { INTERNAL_ERROR_MESSAGE, toAppError } from './http-error.mapper.js';

/**
 * Runs before an error answer is written (e.g. to add headers every answer must carry); an error
 * it answers replaces the one being written (e.g. a rate limit reached by refused requests).
 */
export type BeforeErrorHook = (req: Request, res: Response) => Promise<AppError | null>;

/** The one place that turns a thrown error into the spec's envelope. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger(AllExceptionsFilter.name);

  constructor(private readonly beforeError?: BeforeErrorHook) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    void handleHttpError(
      exception,
      http.getRequest<Request>(),
      http.getResponse<Response>(),
      this.logger,
      this.beforeError,
    );
  }
}

/**
 * How every surface logs what it answers with an error: an outage at warn (without its stack), an
 * unexpected error (`mapped` null, answered 500) at error with its stack; a mapped one not at all.
 */
export function logHttpError(
  exception: unknown,
  mapped: AppError | null,
  req: Request,
  logger: Pick<Logger, 'error' | 'warn'>,
): void {
  if (mapped?.code === ErrorCode.ServiceUnavailable) {
    logger.warn(
      {
        method: req.method,
        path: req.path,
        err: String((mapped.cause as Error | undefined)?.message),
      },
      'dependency unavailable',
    );
  }
  if (mapped === null) {
    const err = exception instanceof Error ? exception : new Error(String(exception));
    logger.error(
      {
        err: { name: err.name, message: err.message, stack: err.stack },
        method: req.method,
        path: req.path,
      },
      'unhandled error',
    );
  }
}

/** Shared by the Nest filter and the Express error middleware (body parsing happens before Nest). */
export async function handleHttpError(
  exception: unknown,
  req: Request,
  res: Response,
  logger: Pick<Logger, 'error' | 'warn'>,
  beforeError?: BeforeErrorHook,
): Promise<void> {
  const mapped = toAppError(exception);
  logHttpError(exception, mapped, req, logger);
  const replacement = await (beforeError?.(req, res) ?? Promise.resolve(null)).catch(
    (error: unknown) => {
      logger.warn({ err: String(error) }, 'before-error hook failed');
      return null;
    },
  );
  if (res.headersSent) {
    return;
  }
  sendError(res, replacement ?? mapped ?? new AppError(ErrorCode.Internal, INTERNAL_ERROR_MESSAGE));
}
