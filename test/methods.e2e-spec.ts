import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { startHarness, type Harness } from './support/harness.js';

interface Answer {
  status: number;
  allow: string | undefined;
  body: string;
}

/** node:http sends any method, TRACE included, with whatever body and content type it is given. */
function send(
  url: string,
  method: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          allow: res.headers.allow,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Methods: a known path called with a method it does not serve answers 405 `method_not_allowed`
 * with `Allow`, before any content-type or body rule; an unknown path stays 404.
 */
describe('Unsupported methods', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  it.each([
    ['TRACE', '/v1/swaps', 'GET, HEAD, POST'],
    ['PUT', '/v1/swaps', 'GET, HEAD, POST'],
    ['DELETE', '/v1/swaps/0123456789abcdef', 'GET, HEAD'],
    ['PATCH', '/v1/quotes', 'POST'],
    ['TRACE', '/v1/webhook_endpoints/we_0123456789abcdef01234567', 'DELETE, GET, HEAD, PATCH'],
    ['POST', '/v1/currencies', 'GET, HEAD'],
    ['DELETE', '/admin/organizations', 'GET, HEAD, POST'],
    ['PUT', '/health', 'GET, HEAD'],
  ])('%s %s answers 405 with Allow: %s', async (method, path, allow) => {
    const answer = await send(`${h.api.url}${path}`, method, {
      Authorization: h.partner.authorization,
    });
    expect(answer.status).toBe(405);
    expect(answer.allow).toBe(allow);
    expect(JSON.parse(answer.body)).toEqual({
      error: expect.objectContaining({
        type: 'validation_error',
        code: 'method_not_allowed',
      }) as unknown,
    });
  });

  it('answers 405 before the content-type and body rules', async () => {
    const plain = await send(
      `${h.api.url}/v1/swaps`,
      'PUT',
      { 'Content-Type': 'text/plain', Authorization: h.partner.authorization },
      'not json',
    );
    expect([plain.status, plain.allow]).toEqual([405, 'GET, HEAD, POST']);
    const broken = await send(
      `${h.api.url}/v1/quotes`,
      'PUT',
      { 'Content-Type': 'application/json' },
      '{"broken',
    );
    expect([broken.status, broken.allow]).toEqual([405, 'POST']);
  });

  it('leaves unknown paths 404 and served methods alone', async () => {
    const unknown = await send(`${h.api.url}/v1/nothing-here`, 'TRACE');
    expect(unknown.status).toBe(404);
    expect(unknown.allow).toBeUndefined();
    expect((await send(`${h.api.url}/V1/swaps`, 'PUT')).status).toBe(404);
    expect((await send(`${h.api.url}/health`, 'HEAD')).status).toBe(200);
    const preflight = await send(`${h.api.url}/v1/public/quote`, 'OPTIONS', {
      Origin: 'https://shop.example',
      'Access-Control-Request-Method': 'GET',
    });
    expect(preflight.status).toBe(204);
    const list = await send(`${h.api.url}/v1/swaps`, 'GET', {
      Authorization: h.partner.authorization,
    });
    expect(list.status).toBe(200);
  });

  it('answers CONNECT with the 405 envelope instead of dropping the connection', async () => {
    const { port } = new URL(h.api.url);
    // Raw bytes: node:http's client would take the answer for a tunnel.
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'),
      );
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString()));
      socket.on('error', reject);
    });
    const [head, body] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 405 /);
    expect(head).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}/i);
    expect(head).toMatch(/\r\nContent-Type: application\/json/i);
    expect(JSON.parse(body)).toMatchObject({
      error: { type: 'validation_error', code: 'method_not_allowed' },
    });
  });
});
