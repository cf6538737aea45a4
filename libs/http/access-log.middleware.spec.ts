import type { AddressInfo } from 'node:net';
import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import express from 'express';
import { pino } from 'pino';
import request from 'supertest';
import { accessLog } from './access-log.middleware.js';

/** An Express app behind the access log, the lines the log writes, and `/slow` being served. */
function loggedApp(): {
  app: express.Express;
  lines: Record<string, unknown>[];
  slowServed: Promise<void>;
} {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const app = express();
  app.use(accessLog(pino({ level: 'info' }, stream)));
  app.get('/ok', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/missing', (_req, res) => {
    res.status(404).json({ error: 'not_found' });
  });
  app.get('/broken', (_req, res) => {
    res.status(500).json({ error: 'internal' });
  });
  let served = (): void => undefined;
  const slowServed = new Promise<void>((resolve) => (served = resolve));
  app.get('/slow', () => served());
  return { app, lines, slowServed };
}

describe(accessLog.name, () => {
  it('writes one info line with the method, the url, the status and the time', async () => {
    const { app, lines } = loggedApp();
    await request(app).get('/ok?x=1').expect(200);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'GET', url: '/ok?x=1' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number) as unknown,
    });
  });

  it('writes a 4xx at warn', async () => {
    const { app, lines } = loggedApp();
    await request(app).get('/missing').expect(404);
    expect(lines).toEqual([expect.objectContaining({ level: 40, res: { statusCode: 404 } })]);
  });

  it('writes a 5xx at error as "request errored", with the failure and no stack', async () => {
    const { app, lines } = loggedApp();
    await request(app).get('/broken').expect(500);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 50,
      msg: 'request errored',
      res: { statusCode: 500 },
      err: { type: 'Error', message: 'failed with status code 500' },
    });
    expect(JSON.stringify(lines[0])).not.toContain('    at ');
  });

  it('writes "request aborted" once when the client leaves before the answer', async () => {
    const { app, lines, slowServed } = loggedApp();
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const client = httpRequest({ host: '127.0.0.1', port, path: '/slow' });
    client.on('error', () => undefined);
    client.end();
    await slowServed;
    client.destroy();
    const until = Date.now() + 5_000;
    while (lines.length === 0 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, msg: 'request aborted', req: expect.anything() }),
    ]);
  });
});
