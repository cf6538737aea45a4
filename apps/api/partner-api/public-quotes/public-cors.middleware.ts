import type { NextFunction, Request, Response } from 'express';

const PUBLIC_QUOTE_PATH = '/v1/public/quote';

/**
 * The one CORS-enabled route (docs/decisions.md, "CORS only on public prices"): anyone may read
 * public prices from a browser, including its errors and 429s, so this runs before rate limiting.
 */
export function publicCorsMiddleware(req: Request, res: Response, next: NextFunction): void {
  if (req.path !== PUBLIC_QUOTE_PATH) {
    next();
    return;
  }
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, OPTIONS');
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
    return;
  }
  next();
}
