import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { WidgetKeyAuthenticator } from '#app/widgets';

const WIDGET_API_PREFIX = '/widget-api/';
const ALLOWED_HEADERS = 'Content-Type, Idempotency-Key, X-Widget-Key, X-Swap-Token, X-Request-Id';

/**
 * CORS preflights of the widget API. A preflight carries no key, so it is allowed when its origin
 * is on the list of some unrevoked widget key (the actual request is then checked against its
 * own key's list); otherwise it gets no CORS headers and the browser stops there. Answered here,
 * before routing, body rules and limits.
 */
export function widgetPreflightMiddleware(authenticator: WidgetKeyAuthenticator): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'OPTIONS' || !req.path.startsWith(WIDGET_API_PREFIX)) {
      next();
      return;
    }
    const origin = req.headers.origin;
    const answer = async (): Promise<void> => {
      if (typeof origin === 'string' && (await authenticator.isOriginListed(origin))) {
        res.setHeader('Access-Control-Allow-Origin', origin);
        res.setHeader('Vary', 'Origin');
        res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
        res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
        res.setHeader('Access-Control-Max-Age', '600');
      }
      res.status(204).end();
    };
    answer().catch(next);
  };
}
