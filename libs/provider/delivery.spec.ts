import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError, ErrorCode } from '#app/errors';
import type { UpstreamGate } from '#app/rate-limit';
import { ChangeNowClient } from './changenow.client.js';
import { JsonRpcClient } from './json-rpc.client.js';
import { ProviderError, type Delivery } from './provider.error.js';
import type { UpstreamCallEvent } from './upstream-call.runner.js';

/** What the local server does with a request, once it has read the whole body. */
type Behaviour = (req: IncomingMessage, res: ServerResponse) => void;

/** A real HTTP server on a local port that behaves as each test says. */
class MisbehavingServer {
  behaviour: Behaviour = (_req, res) => res.end();
  requests = 0;
  private readonly server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      this.requests++;
      this.behaviour(req, res);
    });
  });

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const TIMEOUT_MS = 300;
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

interface ClientUnderTest {
  name: string;
  /** One call to the provider at `baseUrl`, its answer read as it is. */
  call(
    baseUrl: string,
    options: { gate?: UpstreamGate; onCall?: (e: UpstreamCallEvent) => void },
  ): Promise<unknown>;
  /** An answer that refuses the call outright, in the provider's own protocol, and its code. */
  refusal: Behaviour;
  refusalCode: ErrorCode;
  /** An answer the provider gives when it may have processed the call all the same. */
  internalError: Behaviour;
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));

const CLIENTS: ClientUnderTest[] = [
  {
    name: JsonRpcClient.name,
    call: (baseUrl, options) =>
      new JsonRpcClient({ url: `${baseUrl}/v2`, privateKey, timeoutMs: TIMEOUT_MS }, options).call(
        'getCurrenciesFull',
        {},
        (result) => {
          if (!Array.isArray(result)) {
            throw new TypeError('result is not an array');
          }
          return result;
        },
      ),
    refusal: (_req, res) =>
      json(res, 200, {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32602, message: 'Invalid currency' },
      }),
    refusalCode: ErrorCode.InvalidRequest,
    internalError: (_req, res) =>
      json(res, 200, { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } }),
  },
  {
    name: ChangeNowClient.name,
    call: (baseUrl, options) =>
      new ChangeNowClient(
        { url: `${baseUrl}/changenow`, apiKey: 'a-key-of-sixteen-or-more', timeoutMs: TIMEOUT_MS },
        options,
      ).get('currencies', 'exchange/currencies', { active: 'true' }, (result) => {
        if (!Array.isArray(result)) {
          throw new TypeError('result is not an array');
        }
        return result;
      }),
    refusal: (_req, res) =>
      json(res, 400, { error: 'pair_is_inactive', message: 'Pair is inactive' }),
    refusalCode: ErrorCode.PairUnsupported,
    internalError: (_req, res) => res.writeHead(502).end('Bad Gateway'),
  },
];

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error: unknown) {
    if (error instanceof ProviderError) {
      return error;
    }
    throw error;
  }
  throw new Error('expected a ProviderError');
}

describe.each(CLIENTS)('delivery of a $name call', (client) => {
  let server: MisbehavingServer;

  beforeEach(async () => {
    server = new MisbehavingServer();
    await server.start();
  });

  afterEach(async () => {
    await server.close();
  });

  it('is not_sent when the connection is refused', async () => {
    const error = await failure(client.call(`http://127.0.0.1:${await closedPort()}`, {}));

    expect(error).toMatchObject({ code: ErrorCode.UpstreamUnavailable, delivery: 'not_sent' });
  });

  it('is not_sent when the host does not resolve', async () => {
    const error = await failure(client.call('http://provider.invalid', {}));

    expect(error.delivery).toBe('not_sent');
  });

  it('is not_sent, with no request made, when our own budget refuses', async () => {
    const events: UpstreamCallEvent[] = [];
    const refusal = new AppError(ErrorCode.UpstreamRateLimited, 'No budget left.', {
      retryAfterMs: 1500,
    });

    const error = await failure(
      client.call(server.baseUrl, {
        gate: { acquire: () => Promise.reject(refusal) },
        onCall: (event) => events.push(event),
      }),
    );

    expect(error).toMatchObject({
      code: ErrorCode.UpstreamRateLimited,
      message: 'No budget left.',
      retryAfterMs: 1500,
      delivery: 'not_sent',
    });
    expect(server.requests).toBe(0);
    expect(events).toEqual([]);
  });

  it.each<[string, Behaviour, Partial<ProviderError>]>([
    [
      'resets the connection after reading the body',
      (req) => req.socket.resetAndDestroy(),
      { code: ErrorCode.UpstreamUnavailable },
    ],
    ['hangs past the timeout', () => undefined, { code: ErrorCode.UpstreamUnavailable }],
    [
      'cuts the answer short',
      (_req, res) => {
        res.writeHead(200, { 'Content-Length': '100' }).write('[');
        setTimeout(() => res.destroy(), 20);
      },
      { code: ErrorCode.UpstreamUnavailable },
    ],
    [
      'answers garbage',
      (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>oops'),
      { code: ErrorCode.UpstreamBadResponse },
    ],
    [
      'answers JSON of the wrong shape',
      (_req, res) => json(res, 200, { jsonrpc: '2.0', id: 1, result: { surprise: true } }),
      { code: ErrorCode.UpstreamBadResponse },
    ],
  ])('is unknown when the provider %s', async (_case, behaviour, expected) => {
    server.behaviour = behaviour;

    const error = await failure(client.call(server.baseUrl, {}));

    expect(error).toMatchObject({ ...expected, delivery: 'unknown' });
    expect(server.requests).toBe(1);
  });

  it('is unknown when the provider answers HTTP 500', async () => {
    server.behaviour = (_req, res) => res.writeHead(500).end('Internal Server Error');

    const error = await failure(client.call(server.baseUrl, {}));

    expect(error.delivery).toBe<Delivery>('unknown');
    expect(error.status).toBeGreaterThanOrEqual(502);
  });

  it("is unknown on the provider's internal error", async () => {
    server.behaviour = client.internalError;

    expect((await failure(client.call(server.baseUrl, {}))).delivery).toBe('unknown');
  });

  it.each<[string, Behaviour, ErrorCode]>([
    ['refuses the call', client.refusal, client.refusalCode],
    [
      'refuses our credentials',
      (_req, res) => json(res, 401, { error: 'unauthorized', message: 'Unauthorized' }),
      ErrorCode.UpstreamNotConfigured,
    ],
    [
      'rate-limits us',
      (_req, res) => res.writeHead(429, { 'Retry-After': '3' }).end(),
      ErrorCode.UpstreamRateLimited,
    ],
  ])('is refused when the provider %s', async (_case, behaviour, code) => {
    server.behaviour = behaviour;

    const error = await failure(client.call(server.baseUrl, {}));

    expect(error).toMatchObject({ code, delivery: 'refused' });
  });
});

describe(ChangeNowClient.name, () => {
  it("waits as long as a 429's Retry-After asks", async () => {
    const server = new MisbehavingServer();
    await server.start();
    server.behaviour = (_req, res) => res.writeHead(429, { 'Retry-After': '3' }).end();
    try {
      const error = await failure(CLIENTS[1].call(server.baseUrl, {}));

      expect(error).toMatchObject({ code: ErrorCode.UpstreamRateLimited, retryAfterMs: 3000 });
    } finally {
      await server.close();
    }
  });
});
