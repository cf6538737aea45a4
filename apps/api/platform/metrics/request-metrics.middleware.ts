import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ApiMetrics } from './api.metrics.js';

/** The route template (`/v1/swaps/:id`), never the raw path, so label sets stay bounded. */
function routeOf(req: Request): string {
  const route = (req.route as { path?: unknown } | undefined)?.path;
  return typeof route === 'string' ? `${req.baseUrl}${route}` : 'unmatched';
}

export function requestMetricsMiddleware(metrics: ApiMetrics): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    res.once('finish', () => {
      const route = routeOf(req);
      metrics.requests.inc({ method: req.method, route, status: String(res.statusCode) });
      metrics.latency.observe({ method: req.method, route }, (performance.now() - started) / 1000);
      if (res.statusCode === 429) {
        metrics.rateLimited.inc({ route });
      }
    });
    next();
  };
}
