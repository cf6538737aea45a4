import { createServer, Server } from 'node:http';
import { AppError, ErrorCode, toEnvelope } from '#app/errors';
import { HealthService } from './health.service.js';

const NOT_FOUND = toEnvelope(new AppError(ErrorCode.NotFound, 'No such resource.'));

export type MetricsRenderer = () => string;

/**
 * A tiny HTTP server for processes without an HTTP app (the poller): `/health`, `/ready`
 * and, when given, `/metrics` in Prometheus text format.
 */
export async function startProbeServer(
  port: number,
  health: HealthService,
  metrics?: MetricsRenderer,
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
      res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4' }).end(metrics());
    } else {
      reply(404, NOT_FOUND);
    }
  });
  await new Promise<void>((resolve) => server.listen(port, resolve));
  return server;
}
