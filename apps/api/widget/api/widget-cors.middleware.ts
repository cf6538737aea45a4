import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { WidgetKeyAuthenticator } from '#app/widgets';
import type { ApiMetrics } from '../../platform/metrics/api.metrics.js';
import type { RequestLimits } from '../../platform/rate-limiting/request-limits.js';

const WIDGET_API_PREFIX = '/widget-api/';
const ALLOWED_HEADERS = 'Content-Type, Idempotency-Key, X-Widget-Key, X-Swap-Token, X-Request-Id';

/**
 * CORS preflights of the widget API. A preflight carries no key, so it is allowed when its origin
 * is on the list of some unrevoked widget key (the actual request is then checked against its
 * own key's list); otherwise it gets no CORS headers and the browser stops there. Answered here,
 * before routing and body rules, but counted first in the per-IP limit of `/widget-api` that
 * every replica shares (429 past it), and each outcome in `api_widget_preflights_total`.
 */
export function widgetPreflightMiddleware(
  authenticator: WidgetKeyAuthenticator,
  limits: RequestLimits,
  metrics: ApiMetrics,
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'OPTIONS' || !req.path.startsWith(WIDGET_API_PREFIX)) {
      next();
      return;
    }
    const origin = req.headers.origin;
    const answer = async (): Promise<void> => {
      const refusal = await limits.countRejected(req, res);
      if (refusal) {
        metrics.widgetPreflights.inc({ outcome: 'rate_limited' });
        throw refusal;
      }
      const listed = typeof origin === 'string' && (await authenticator.isOriginListed(origin));
      if (listed) {
        res.setHeader('Access-Control-Allow-Origin', origin);
        res.setHeader('Vary', 'Origin');
        res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
        res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
        res.setHeader('Access-Control-Max-Age', '600');
      }
      metrics.widgetPreflights.inc({ outcome: listed ? 'allowed' : 'unlisted' });
      res.status(204).end();
    };
    answer().catch(next);
  };
}
