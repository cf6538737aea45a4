import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { ResolveAll } from './target.guard.js';
import { sendWebhook, WEBHOOK_RESPONSE_LIMIT_BYTES } from './webhook.sender.js';
import { generateWebhookSecret, signWebhook } from './webhook.signer.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on loopback that answers each request with `answer`. */
async function receiver(answer: (res: ServerResponse) => void) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    url: (host = '127.0.0.1') => `http://${host}:${port}/hooks`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const relaxed = { allowPrivateTargets: true };
const strict = { allowPrivateTargets: false };
const loopback: ResolveAll = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);

describe(sendWebhook.name, () => {
  const secret = generateWebhookSecret();
  const body = JSON.stringify({ id: 'evt_0123456789abcdef01234567', type: 'swap.created' });
  const headers = signWebhook([secret], 'evt_0123456789abcdef01234567', Date.now() / 1000, body);
  let server: Awaited<ReturnType<typeof receiver>> | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('posts the body with the signature headers, and a 2xx counts as delivered', async () => {
    server = await receiver((res) => res.writeHead(204).end());

    const result = await sendWebhook(
      { url: server.url(), livemode: false, body, headers },
      relaxed,
    );

    expect(result).toMatchObject({ delivered: true, httpStatus: 204, error: null });
    const [request] = server.received;
    expect(request.body).toBe(body);
    expect(request.headers['content-type']).toBe('application/json');
    expect(
      new Webhook(secret).verify(request.body, request.headers as Record<string, string>),
    ).toEqual(JSON.parse(body));
  });

  it('counts a redirect as an answer, not delivered, and does not follow it', async () => {
    server = await receiver((res) => res.writeHead(302, { location: 'http://127.0.0.1:1/' }).end());

    const result = await sendWebhook(
      { url: server.url(), livemode: false, body, headers },
      relaxed,
    );

    expect(result).toMatchObject({ delivered: false, httpStatus: 302, error: null });
    expect(server.received).toHaveLength(1);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    server = await receiver(() => undefined);

    const result = await sendWebhook(
      { url: server.url(), livemode: false, body, headers },
      relaxed,
      undefined,
      200,
    );

    expect(result).toMatchObject({
      delivered: false,
      httpStatus: null,
      error: 'timeout after 200 ms',
      timedOut: true,
      refused: false,
    });
  });

  it('reads at most 64 KiB of the answer', async () => {
    server = await receiver((res) => res.writeHead(200).end('x'.repeat(1024 * 1024)));

    const result = await sendWebhook(
      { url: server.url(), livemode: false, body, headers },
      relaxed,
    );

    expect(result).toMatchObject({ delivered: true, httpStatus: 200 });
    expect(result.bytesRead).toBe(WEBHOOK_RESPONSE_LIMIT_BYTES);
  });

  it('refuses a literal private address before connecting', async () => {
    server = await receiver((res) => res.writeHead(200).end());

    const result = await sendWebhook({ url: server.url(), livemode: false, body, headers }, strict);

    expect(result).toMatchObject({ delivered: false, httpStatus: null, refused: true });
    expect(result.error).toBe('refused: url resolves to a loopback address');
    expect(server.received).toHaveLength(0);
  });

  it('checks the name again at connect time: a host rebound to loopback is refused', async () => {
    server = await receiver((res) => res.writeHead(200).end());

    const result = await sendWebhook(
      { url: server.url('hooks.partner.example'), livemode: false, body, headers },
      strict,
      loopback,
    );

    expect(result).toMatchObject({ delivered: false, httpStatus: null, refused: true });
    expect(result.error).toBe('refused: host resolves to a loopback address');
    expect(server.received).toHaveLength(0);
  });

  it('connects through the resolved address when the policy allows it', async () => {
    server = await receiver((res) => res.writeHead(200).end('ok'));

    const result = await sendWebhook(
      { url: server.url('hooks.partner.example'), livemode: false, body, headers },
      relaxed,
      loopback,
    );

    expect(result).toMatchObject({ delivered: true, httpStatus: 200, bytesRead: 2 });
  });

  it('reports a refused connection without a stack or secret', async () => {
    const result = await sendWebhook(
      { url: 'http://127.0.0.1:1/hooks', livemode: false, body, headers },
      relaxed,
    );

    expect(result).toMatchObject({
      delivered: false,
      httpStatus: null,
      error: 'ECONNREFUSED',
      timedOut: false,
      refused: false,
    });
  });

  it('reports a name that resolves to nothing as a failure to retry, not a refusal', async () => {
    const nowhere: ResolveAll = () => Promise.resolve([]);
    const result = await sendWebhook(
      { url: 'https://hooks.partner.example/h', livemode: true, body, headers },
      strict,
      nowhere,
    );

    expect(result).toMatchObject({
      delivered: false,
      error: 'host does not resolve',
      refused: false,
    });
  });
});
