import { createServer, Server } from 'node:http';
import { AppError, ErrorCode, INTERNAL_ERROR_MESSAGE, toEnvelope } from '#app/errors';
import { adminBearerMatches } from '#app/input';
import { HealthService } from './health.service.js';

const NOT_FOUND = toEnvelope(new AppError(ErrorCode.NotFound, 'No such resource.'));
const INTERNAL = toEnvelope(new AppError(ErrorCode.Internal, INTERNAL_ERROR_MESSAGE));
const UNAUTHENTICATED = toEnvelope(
  new AppError(ErrorCode.Unauthenticated, 'Missing or invalid admin token.'),
);

/** What `/metrics` serves; a prom-client `Registry` is one. */
export interface MetricsSource {
  readonly contentType: string;
  metrics(): Promise<string>;
}

/** `/metrics` of a probe server: the registry and the operator token it asks for. */
export interface ProbeMetrics {
  source: MetricsSource;
  /** `ADMIN_TOKEN`: a scrape sends `Authorization: Bearer <token>`, as to the api's `/metrics`. */
  adminToken: string;
}

/**
 * A tiny HTTP server for processes without an HTTP app (the poller): `/health`, `/ready`
 * and, when given, `/metrics` in Prometheus text format behind the admin token; on `host` when
 * given, else on every interface.
 */
export async function startProbeServer(
  port: number,
  health: HealthService,
  metrics?: ProbeMetrics,
  host?: string,
): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const reply = (status: number, body: unknown): void => {
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    };
    if (req.method !== 'GET') {
      reply(404, NOT_FOUND);
    } else if (path === '/health') {
      void health.health().then((r) => reply(200, r));
    } else if (path === '/ready') {
      void health.readiness().then((r) => reply(r.ok ? 200 : 503, r));
    } else if (path === '/metrics' && metrics) {
      if (!adminBearerMatches(req.headers.authorization, metrics.adminToken)) {
        reply(401, UNAUTHENTICATED);
        return;
      }
      void metrics.source.metrics().then(
        (text) => res.writeHead(200, { 'Content-Type': metrics.source.contentType }).end(text),
        () => reply(500, INTERNAL),
      );
    } else {
      reply(404, NOT_FOUND);
    }
  });
  await new Promise<void>((resolve) =>
    host === undefined ? server.listen(port, resolve) : server.listen(port, host, resolve),
  );
  return server;
}
