import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError, ErrorCode } from '#app/errors';

/** One route of the app: a path pattern and the methods it serves. */
interface KnownPath {
  pattern: RegExp;
  methods: Set<string>;
}

/**
 * The app's routes, and for each method one pattern of every path serving it: a request whose
 * method its path serves (nearly all) costs one regular expression, not one per route.
 */
interface KnownRoutes {
  paths: KnownPath[];
  servedBy: Map<string, RegExp>;
  /**
   * The methods of each path without parameters. Such a path is served by its own routes only,
   * never by a pattern that happens to match it too: `/admin/swaps/import` is no swap id.
   */
  literal: Map<string, Set<string>>;
}

/** What Express 5 keeps of a route: its path and `methods` (absent from its published types). */
interface ExpressRoute {
  path: unknown;
  methods?: Record<string, boolean | undefined>;
}

interface RouterLike {
  stack: { route?: unknown }[];
}

/** `/v1/swaps/:id` → `/v1/swaps/[^/]+`: routes are literal segments and named parameters. */
function sourceOf(path: string): string {
  return path
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
}

/** The app's routes grouped by path, read from the Express router once every route is mounted. */
function knownRoutes(router: RouterLike): KnownRoutes {
  const byPath = new Map<string, Set<string>>();
  for (const layer of router.stack) {
    const route = layer.route as ExpressRoute | undefined;
    if (!route || typeof route.path !== 'string') {
      continue;
    }
    const methods = byPath.get(route.path) ?? new Set<string>();
    for (const [method, served] of Object.entries(route.methods ?? {})) {
      if (served && method !== '_all') {
        methods.add(method.toUpperCase());
      }
    }
    byPath.set(route.path, methods);
  }
  const sourcesByMethod = new Map<string, string[]>();
  const paths = [...byPath.entries()].map(([path, methods]) => {
    // Express answers HEAD with the GET route.
    if (methods.has('GET')) {
      methods.add('HEAD');
    }
    const source = sourceOf(path);
    for (const method of methods) {
      const sources = sourcesByMethod.get(method) ?? [];
      sources.push(source);
      sourcesByMethod.set(method, sources);
    }
    return { pattern: new RegExp(`^${source}$`), methods };
  });
  const servedBy = new Map(
    [...sourcesByMethod.entries()].map(([method, sources]) => [
      method,
      new RegExp(`^(?:${sources.join('|')})$`),
    ]),
  );
  const literal = new Map([...byPath].filter(([path]) => !path.includes('/:')));
  return { paths, servedBy, literal };
}

/**
 * A known path called with a method it does not serve answers 405 `method_not_allowed` with the
 * `Allow` header, before any body or content-type rule looks at it; an unknown path goes on to
 * the 404. The routes are read on the first request: they are mounted when the app starts
 * listening, after this middleware.
 */
export function rejectUnsupportedMethods(router: () => RouterLike): RequestHandler {
  let routes: KnownRoutes | null = null;
  return (req: Request, res: Response, next: NextFunction): void => {
    routes ??= knownRoutes(router());
    const own = routes.literal.get(req.path);
    if (own ? own.has(req.method) : routes.servedBy.get(req.method)?.test(req.path)) {
      next();
      return;
    }
    const matching = own
      ? [{ methods: own }]
      : routes.paths.filter((p) => p.pattern.test(req.path));
    if (matching.length === 0) {
      next();
      return;
    }
    const allowed = [...new Set(matching.flatMap(({ methods }) => [...methods]))].sort();
    res.setHeader('Allow', allowed.join(', '));
    next(
      new AppError(
        ErrorCode.MethodNotAllowed,
        `${req.method} is not allowed here; this path answers ${allowed.join(', ')}.`,
      ),
    );
  };
}
