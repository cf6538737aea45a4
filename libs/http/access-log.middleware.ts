import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger as Pino } from 'pino';

/**
 * One access line per request, written when its response finishes, closes or fails:
 * `{req: {method, url}, res: {statusCode}, responseTime}` with "request completed" (or "request
 * aborted" when the client left first), and "request errored" with an `err` of the failure (its
 * message, no stack) for 5xx. The request id and org id come from the logger's mixin. One logger
 * call per request: no child logger, no per-request serializers (docs/decisions.md, "Logging").
 */
export function accessLog(logger: Pino): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = Date.now();
    const line = { method: req.method, url: req.url };
    const complete = (error?: unknown): void => {
      res.off('close', complete);
      res.off('finish', complete);
      res.off('error', complete);
      const { statusCode } = res;
      const responseTime = Date.now() - started;
      if (error !== undefined || statusCode >= 500) {
        const message =
          error instanceof Error ? error.message : `failed with status code ${statusCode}`;
        // The failure as an Error for pino's serializer, without a stack: the line is the request's.
        const err = Object.assign(new Error(message), { stack: undefined });
        logger.error({ req: line, res: { statusCode }, err, responseTime }, 'request errored');
        return;
      }
      logger[statusCode >= 400 ? 'warn' : 'info'](
        { req: line, res: { statusCode }, responseTime },
        !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted',
      );
    };
    res.on('close', complete);
    res.on('finish', complete);
    res.on('error', complete);
    next();
  };
}
