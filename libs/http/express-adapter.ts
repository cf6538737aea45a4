import { ExpressAdapter } from '@nestjs/platform-express';
import express from 'express';

/**
 * Express with case-sensitive, strict routing: `/V1/swaps` and `/v1/public/quote/` are unknown
 * paths (404) instead of aliases of the real routes, so nothing keyed on a path (limits, CORS,
 * content-type rules) can be sidestepped by spelling it differently. The router reads these
 * settings when it is created, so they are set before anything else touches the app.
 */
export function strictExpressAdapter(): ExpressAdapter {
  const instance = express();
  instance.set('case sensitive routing', true);
  instance.set('strict routing', true);
  return new ExpressAdapter(instance);
}
