import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { Logger as Pino } from 'pino';
import { AllExceptionsFilter, handleHttpError, type BeforeErrorHook } from '#app/errors';
import { accessLog } from './access-log.middleware.js';
import { answerClientErrorsWithEnvelope } from './client-error.handler.js';
import { jsonBodyParser, requireJsonContentType } from './json-body.middleware.js';
import { rejectUnsupportedMethods } from './method-not-allowed.middleware.js';
import { requestIdMiddleware } from './request-id.middleware.js';
import { applyServerTimeouts, type ServerTimeouts } from './server-timeouts.js';
import { createValidationPipe } from './validation.pipe.js';

/**
 * Per-request steps a bench may switch off to measure what each costs (`npm run bench -- steps`).
 * Only the bench passes any; production entry points never do.
 */
export type PipelineStep = 'access-log' | 'request-metrics' | 'headers' | 'validation';

export interface HttpAppOptions {
  logger: Pino;
  trustProxyHops?: number;
  /** Off when several apps share one process and it handles signals itself (embedded start). */
  shutdownHooks?: boolean;
  /** Run after the request id and access log but before body parsing (e.g. rate limits). */
  beforeBody?: RequestHandler[];
  /** Runs before any error answer is written (e.g. rate-limit headers on early rejections). */
  beforeError?: BeforeErrorHook;
  timeouts: ServerTimeouts;
  /** Steps left out, for the bench's measurements only. */
  without?: ReadonlySet<PipelineStep>;
}

/**
 * helmet's security headers, captured once: with a fixed configuration its middlewares set the
 * same headers on every response, so one loop sets them instead of a dozen middlewares per request.
 */
function helmetHeaders(): [string, string][] {
  const headers: [string, string][] = [];
  const capture = {
    setHeader: (name: string, value: string) => headers.push([name, value]),
    removeHeader: () => undefined,
  };
  let failure: unknown;
  helmet()({} as Request, capture as unknown as Response, (error?: unknown) => {
    failure = error;
  });
  if (failure !== undefined || headers.length === 0) {
    throw new Error('helmet did not set its headers synchronously');
  }
  return headers;
}

/**
 * What every response carries, set in one step before anything else runs: the request id (and
 * the logging context), `Cache-Control: no-store` and helmet's headers. Answers carry
 * credentials, secrets and swaps: no cache may keep one. A route whose answer is public says so
 * itself (`@Header('Cache-Control', …)`); its errors stay `no-store` (`sendError`).
 */
function responseHeaders(withHeaders: boolean): RequestHandler {
  const headers: [string, string][] = withHeaders
    ? [['Cache-Control', 'no-store'], ...helmetHeaders()]
    : [];
  return (req: Request, res: Response, next: NextFunction): void => {
    for (const [name, value] of headers) {
      res.setHeader(name, value);
    }
    requestIdMiddleware(req, res, next);
  };
}

/**
 * Middlewares that run for every request, as one router layer: each calls the next in order, and
 * an error (passed on, thrown or rejected) skips the rest for the app's error handler, as between
 * layers.
 */
function inSequence(handlers: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error) {
        next(error);
        return;
      }
      const handler = handlers[index];
      index += 1;
      if (handler === undefined) {
        next();
        return;
      }
      try {
        const result: unknown = handler(req, res, step);
        if (result instanceof Promise) {
          result.catch(next);
        }
      } catch (thrown: unknown) {
        next(thrown);
      }
    };
    step();
  };
}

/**
 * Everything every HTTP app (api, sandbox, e2e apps) shares, in order: server timeouts, request
 * id with no caching and the security headers, access log, JSON body rules, validation and the
 * error envelope. The app must be created with `bodyParser: false` so body errors reach our envelope.
 */
export function configureHttpApp(app: NestExpressApplication, options: HttpAppOptions): void {
  const errorLogger = new Logger('HttpErrors');
  app.disable('x-powered-by');
  // Answers are `no-store`, bar public prices (10 s) and the docs (5 min): a weak ETag would hash
  // every body, a 50-swap list included, for revalidations that almost never come.
  app.set('etag', false);
  answerClientErrorsWithEnvelope(app.getHttpServer());
  applyServerTimeouts(app.getHttpServer(), options.timeouts);
  app.set('trust proxy', options.trustProxyHops ?? 0);
  const without = options.without ?? new Set<PipelineStep>();
  app.use(
    inSequence([
      responseHeaders(!without.has('headers')),
      // Before anything that may answer on its own (limits, body rules): every request gets its line.
      ...(without.has('access-log') ? [] : [accessLog(options.logger)]),
      ...(options.beforeBody ?? []),
      rejectUnsupportedMethods(() => app.getHttpAdapter().getInstance().router),
      requireJsonContentType,
      jsonBodyParser(),
    ]),
  );
  app.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    void handleHttpError(err, req, res, errorLogger, options.beforeError);
  });
  if (!without.has('validation')) {
    app.useGlobalPipes(createValidationPipe());
  }
  app.useGlobalFilters(new AllExceptionsFilter(options.beforeError));
  if (options.shutdownHooks ?? true) {
    app.enableShutdownHooks();
  }
}
