import cookieParser from 'cookie-parser';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** `/partner` and everything under it. */
export function isDashboardPath(path: string): boolean {
  return path === '/partner' || path.startsWith('/partner/');
}

const CSP_DIRECTIVES = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
];

/**
 * Scripts, styles and images only from our own `/assets` (no inline script, no CDN), forms only
 * to ourselves, never framed.
 */
export const DASHBOARD_CSP = CSP_DIRECTIVES.join('; ');

/**
 * The Widget page's: the same, and it may frame this origin's own pages, for the live preview
 * of the hosted widget (docs/decisions.md, "Dashboard: the Widget page").
 */
export const DASHBOARD_PREVIEW_CSP = [...CSP_DIRECTIVES, "frame-src 'self'"].join('; ');

const HEADERS: [string, string][] = [
  ['Content-Security-Policy', DASHBOARD_CSP],
  ['Cache-Control', 'no-store'],
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'same-origin'],
  ['X-Frame-Options', 'DENY'],
];

const parseCookies = cookieParser();

/**
 * Every `/partner` answer, pages, redirects and errors alike, and the landing page `/`, get the
 * dashboard's headers; their cookies are parsed; a page read with a trailing slash is redirected
 * to the path without it. Other paths pass untouched.
 */
export function dashboardHttpMiddleware(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!isDashboardPath(req.path) && req.path !== '/') {
      next();
      return;
    }
    for (const [name, value] of HEADERS) {
      res.setHeader(name, value);
    }
    if (
      isDashboardPath(req.path) &&
      req.path.endsWith('/') &&
      (req.method === 'GET' || req.method === 'HEAD')
    ) {
      // Routing is exact (docs/decisions.md, "Exact routing"): a page asked for with a trailing
      // slash is sent to its one spelling, which starts with /partner, never to another site.
      const at = req.originalUrl.indexOf('?');
      const query = at === -1 ? '' : req.originalUrl.slice(at);
      res.redirect(301, req.path.replace(/\/+$/, '') + query);
      return;
    }
    parseCookies(req, res, next);
  };
}
