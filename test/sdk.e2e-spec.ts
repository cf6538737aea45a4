import { execFile, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import {
  AuthenticationError,
  AuthorizationError,
  ConflictError,
  ConnectionError,
  InternalError,
  NotFoundError,
  RateLimitError,
  signWebhook,
  SwapPartners,
  SwapPartnersError,
  UnprocessableError,
  UpstreamError,
  ValidationError,
  verifyWebhook,
  webhookHandler,
  WebhookVerificationError,
  type Swap,
  type WebhookEvent,
} from '../sdk/src/index.js';
import { issueCredential, type TestPartner } from './factories/partners.js';
import { startHarness, type Harness } from './support/harness.js';
import { waitUntil } from './support/wait.js';

const run = promisify(execFile);
const ROOT = process.cwd();
const SCHEMA_FILE = join(ROOT, 'sdk', 'src', 'schema.ts');

/** A fetch that answers the first calls matching `when` with `answers`, then the real one. */
function injecting(
  when: (req: Request) => boolean,
  answers: (Response | 'drop' | ((real: Response) => Response))[],
): { fetch: typeof fetch; seen: Request[] } {
  const seen: Request[] = [];
  const wrapped = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init);
    seen.push(req.clone());
    if (when(req) && answers.length > 0) {
      const answer = answers.shift()!;
      if (answer === 'drop') {
        throw new TypeError('fetch failed');
      }
      if (typeof answer === 'function') {
        return answer(await fetch(req));
      }
      return answer;
    }
    return fetch(req);
  };
  return { fetch: wrapped, seen };
}

function envelope(
  status: number,
  type: string,
  code: string,
  headers: Record<string, string> = {},
) {
  return new Response(
    JSON.stringify({
      error: { type, code, message: code, param: null, upstream_code: null, retry_after_ms: null },
    }),
    {
      status,
      headers: { 'content-type': 'application/json', 'x-request-id': 'req-injected', ...headers },
    },
  );
}

/**
 * The TypeScript SDK in `sdk/` against a started api (sandbox, api and a poller): its generated
 * types match the served document, the test-mode flow, every error class, retries as the contract
 * says on injected 429 and 5xx, iterators across pages, webhook verification and the handler, the
 * `listen` command, and a packed tarball with types.
 */
describe('The TypeScript SDK', () => {
  let h: Harness;
  let partner: TestPartner;
  let tester: TestPartner;
  let client: SwapPartners;
  let work: string;
  const servers: Server[] = [];
  const noWait = () => Promise.resolve();

  const clientFor = (
    who: TestPartner,
    extra: Partial<ConstructorParameters<typeof SwapPartners>[0]> = {},
  ) =>
    new SwapPartners({
      baseUrl: h.api.url,
      credential: `${who.publicKey}:${who.secret}`,
      sleep: noWait,
      ...extra,
    });

  beforeAll(async () => {
    h = await startHarness({
      sandbox: { stepMs: 100 },
      localPoller: { POLL_INTERVAL_MS: '60000', TEST_POLL_INTERVAL_MS: '200' },
    });
    partner = h.partner;
    tester = await issueCredential(h.api.app, partner, 'test');
    client = clientFor(tester);
    work = await mkdtemp(join(tmpdir(), 'sdk-'));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      ),
    );
    await rm(work, { recursive: true, force: true });
    await h?.close();
  });

  async function testSwap(
    c: SwapPartners = client,
    extra: Partial<Parameters<SwapPartners['swaps']['create']>[0]> = {},
  ): Promise<Swap> {
    const [address] = await c.testHelpers.addresses('eth');
    return c.swaps.create({ from: 'btc', to: 'eth', amountFrom: '0.1', address, ...extra });
  }

  async function listenOn(
    handler: (
      req: import('node:http').IncomingMessage,
      res: import('node:http').ServerResponse,
    ) => void,
  ): Promise<string> {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  }

  it('ships types generated from the served document, unchanged', async () => {
    const document = (await request(h.api.url).get('/v1/openapi.json').expect(200)).body as object;
    const source = join(work, 'partner.json');
    await writeFile(source, JSON.stringify(document));
    const generated = join(work, 'schema.ts');
    await run(process.execPath, [
      join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'),
      source,
      '-o',
      generated,
      '--default-non-nullable',
      'false',
    ]);
    const fresh = await readFile(generated, 'utf8');
    // `SDK_SCHEMA_UPDATE=1 npm test -- test/sdk.e2e-spec.ts` regenerates it after an API change.
    if (process.env.SDK_SCHEMA_UPDATE === '1') {
      await writeFile(SCHEMA_FILE, fresh);
    }
    expect(await readFile(SCHEMA_FILE, 'utf8')).toBe(fresh);
  }, 120_000);

  it('runs the test-mode flow: quote, address, create (replayed by its key), deposit, finished', async () => {
    const quote = await client.quotes.create({ from: 'btc', to: 'eth', amountFrom: '0.1' });
    expect(quote).toMatchObject({ from: 'btc', to: 'eth', amountFrom: '0.1' });
    const [address] = await client.testHelpers.addresses('eth');
    expect(await client.addresses.validate({ currency: 'eth', address })).toMatchObject({
      valid: true,
    });
    const key = randomUUID();
    const body = { from: quote.from, to: quote.to, amountFrom: quote.amountFrom, address };
    const swap = await client.swaps.create(body, { idempotencyKey: key });
    expect(swap).toMatchObject({ status: 'waiting', livemode: false });
    expect((await client.swaps.create(body, { idempotencyKey: key })).id).toBe(swap.id);
    await client.testHelpers.deposit(swap.id);
    let status = swap.status;
    await waitUntil(
      'the swap to finish',
      async () => {
        status = (await client.swaps.get(swap.id)).status;
        return status === 'finished';
      },
      20_000,
      100,
    );
    const history = await client.swaps.events(swap.id);
    expect(history[0]).toMatchObject({ type: 'swap.created' });
    expect(history.at(-1)?.data.swap.status).toBe('finished');
  }, 40_000);

  it("runs the README's TypeScript flow as printed, to finished", async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('The same in TypeScript with the SDK'));
    const snippet = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(snippet).toContain("from 'swap-partners'");
    const dir = join(work, 'readme-flow');
    await mkdir(join(dir, 'node_modules'), { recursive: true });
    // Installed as a partner would have it: the package, resolving its own dependencies.
    await symlink(join(ROOT, 'sdk'), join(dir, 'node_modules', 'swap-partners'), 'dir');
    await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    const program = [
      'const API = process.env.API_URL;',
      snippet!.replace("'pk_test_…:sk_test_…'", 'process.env.CREDENTIAL'),
      "console.log('finished');",
    ].join('\n');
    await writeFile(join(dir, 'flow.ts'), program);
    const { stdout } = await run(process.execPath, ['flow.ts'], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        API_URL: h.api.url,
        CREDENTIAL: `${tester.publicKey}:${tester.secret}`,
      },
      timeout: 30_000,
    });
    expect(stdout.trim()).toBe('finished');
  }, 40_000);

  it('throws a typed error for each error type, with code, param and requestId', async () => {
    const caught = async (promise: Promise<unknown>): Promise<SwapPartnersError> => {
      const error = await promise.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SwapPartnersError);
      return error as SwapPartnersError;
    };
    const invalid = await caught(
      client.quotes.create({ from: 'btc', to: 'eth', amountFrom: 'lots' }),
    );
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid).toMatchObject({ status: 400, code: 'invalid_request', param: 'amountFrom' });
    expect(invalid.requestId).toMatch(/\S/);
    const wrong = clientFor({ ...tester, secret: `sk_test_${'0'.repeat(48)}` });
    expect(await caught(wrong.swaps.list())).toBeInstanceOf(AuthenticationError);
    const live = clientFor(partner);
    const liveSwap = await caught(live.testHelpers.addresses('eth'));
    expect(liveSwap).toBeInstanceOf(AuthorizationError);
    expect(liveSwap.code).toBe('test_mode_only');
    expect(await caught(client.swaps.get('0123456789abcdef'))).toBeInstanceOf(NotFoundError);
    const swap = await testSwap();
    await client.testHelpers.forceStatus(swap.id, 'failed');
    const conflict = await caught(client.testHelpers.deposit(swap.id));
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(conflict.code).toBe('conflict');
    const key = randomUUID();
    const [address] = await client.testHelpers.addresses('eth');
    await client.swaps.create(
      { from: 'btc', to: 'eth', amountFrom: '0.1', address },
      { idempotencyKey: key },
    );
    const mismatch = await caught(
      client.swaps.create(
        { from: 'btc', to: 'eth', amountFrom: '0.2', address },
        { idempotencyKey: key },
      ),
    );
    expect(mismatch).toMatchObject({ code: 'idempotency_key_mismatch', idempotencyKey: key });
    // The provider-side classes, injected: the service answers them only when the provider fails.
    const injected = (status: number, type: string, code: string) =>
      caught(
        clientFor(tester, {
          fetch: injecting(() => true, [envelope(status, type, code)]).fetch,
        }).quotes.create({
          from: 'btc',
          to: 'eth',
          amountFrom: '0.1',
        }),
      );
    expect(await injected(422, 'unprocessable', 'exchange_not_processable')).toBeInstanceOf(
      UnprocessableError,
    );
    expect(await injected(502, 'upstream_error', 'upstream_error')).toBeInstanceOf(UpstreamError);
    const internal = await injected(500, 'internal_error', 'internal');
    expect(internal).toBeInstanceOf(InternalError);
    expect(internal.requestId).toBe('req-injected');
    const nowhere = new SwapPartners({
      baseUrl: 'http://127.0.0.1:9',
      credential: 'pk:sk',
      sleep: noWait,
      maxRetries: 1,
    });
    await expect(nowhere.swaps.list()).rejects.toBeInstanceOf(ConnectionError);
  }, 30_000);

  it('retries a 429 after Retry-After with the same key, never a 5xx on create, reads on 502/503', async () => {
    const waits: number[] = [];
    const sleep = (ms: number) => {
      waits.push(ms);
      return Promise.resolve();
    };
    const isCreate = (req: Request) => req.url.endsWith('/v1/swaps') && req.method === 'POST';
    const limited = injecting(isCreate, [
      envelope(429, 'rate_limit_error', 'rate_limited', { 'retry-after': '2' }),
      envelope(429, 'rate_limit_error', 'rate_limited', { 'retry-after': '1' }),
    ]);
    const [address] = await client.testHelpers.addresses('eth');
    const swap = await clientFor(tester, { fetch: limited.fetch, sleep }).swaps.create({
      from: 'btc',
      to: 'eth',
      amountFrom: '0.1',
      address,
    });
    expect(swap.status).toBe('waiting');
    const keys = limited.seen
      .filter((r) => isCreate(r))
      .map((r) => r.headers.get('idempotency-key'));
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(waits).toEqual([2000, 1000]);

    // Past maxRetries the 429 is the caller's: a RateLimitError.
    const always = injecting(
      isCreate,
      Array.from({ length: 4 }, () =>
        envelope(429, 'rate_limit_error', 'rate_limited', { 'retry-after': '1' }),
      ),
    );
    await expect(
      clientFor(tester, { fetch: always.fetch, maxRetries: 3 }).swaps.create({
        from: 'btc',
        to: 'eth',
        amountFrom: '0.1',
        address,
      }),
    ).rejects.toBeInstanceOf(RateLimitError);

    // A 5xx on create is thrown at once: one request, the key on the error for the recovery.
    const failing = injecting(isCreate, [envelope(503, 'upstream_error', 'upstream_error')]);
    const error = await clientFor(tester, { fetch: failing.fetch })
      .swaps.create({ from: 'btc', to: 'eth', amountFrom: '0.1', address })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(failing.seen.filter((r) => isCreate(r))).toHaveLength(1);

    // A read is retried on 502/503 and on a lost connection.
    const flaky = injecting(
      (req) => req.url.includes(`/v1/swaps/${swap.id}`),
      [envelope(503, 'upstream_error', 'upstream_error'), 'drop'],
    );
    expect((await clientFor(tester, { fetch: flaky.fetch }).swaps.get(swap.id)).id).toBe(swap.id);
    expect(flaky.seen).toHaveLength(3);

    // A lost answer to a create: the same key again, and the service replays the one swap.
    const lost = injecting(isCreate, [
      (real: Response) => {
        void real.body?.cancel();
        throw new TypeError('socket hang up');
      },
    ]);
    const replayed = await clientFor(tester, { fetch: lost.fetch }).swaps.create({
      from: 'btc',
      to: 'eth',
      amountFrom: '0.1',
      address,
    });
    const lostKeys = lost.seen
      .filter((r) => isCreate(r))
      .map((r) => r.headers.get('idempotency-key'));
    expect(new Set(lostKeys).size).toBe(1);
    expect(lostKeys).toHaveLength(2);
    expect(replayed.status).toBe('waiting');
  }, 30_000);

  it('recovers a create whose answer was a 5xx by listing its partnerReferenceId', async () => {
    const reference = `order-${randomBytes(4).toString('hex')}`;
    const isCreate = (req: Request) => req.url.endsWith('/v1/swaps') && req.method === 'POST';
    // The swap is created, but the answer the client sees is a 502.
    const lostAnswer = injecting(isCreate, [
      (real: Response) => {
        void real.body?.cancel();
        return envelope(502, 'upstream_error', 'upstream_error');
      },
    ]);
    const [address] = await client.testHelpers.addresses('eth');
    const { swap, recovered } = await clientFor(tester, {
      fetch: lostAnswer.fetch,
    }).swaps.createOrRecover(
      { from: 'btc', to: 'eth', amountFrom: '0.1', address, partnerReferenceId: reference },
      { waitMs: 5000, pollMs: 100 },
    );
    expect(recovered).toBe(true);
    expect(swap.partnerReferenceId).toBe(reference);
    expect(await client.swaps.list({ partnerReferenceId: reference })).toHaveLength(1);
  }, 30_000);

  it('visits every swap once, newest first, while swaps are created between its pages', async () => {
    const other = await h.newPartner({ mode: 'test' });
    const mine = clientFor(other);
    const existing: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      existing.push((await testSwap(mine)).id);
    }
    const seen: string[] = [];
    const createdMeanwhile: string[] = [];
    for await (const swap of mine.swaps.iterate({ limit: 2 })) {
      seen.push(swap.id);
      // Newer swaps land before every page still to come: an offset would shift onto them.
      createdMeanwhile.push((await testSwap(mine)).id);
    }
    expect(seen).toEqual([...existing].reverse());
    expect(createdMeanwhile).toHaveLength(existing.length);
  }, 60_000);

  it('iterates swaps and the event feed across pages, keeping the cursor', async () => {
    const other = await h.newPartner({ mode: 'test' });
    const mine = clientFor(other);
    const created: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      created.push((await testSwap(mine)).id);
    }
    const seen: string[] = [];
    for await (const swap of mine.swaps.iterate({ limit: 2 })) {
      seen.push(swap.id);
    }
    expect(seen).toEqual([...created].reverse());
    // The feed shows an event once every older transaction has ended (a poller's may be open).
    const visible = (count: number) => () =>
      mine.events.list({ limit: 200 }).then((page) => page.events.length === count);
    await waitUntil('the five swap.created events in the feed', visible(5), 30_000);
    const events = mine.events.iterate({ pageSize: 2 });
    const feed: string[] = [];
    for await (const event of events) {
      feed.push(event.data.swap.id);
    }
    expect(feed).toEqual(created);
    const cursor = events.after;
    const next = (await testSwap(mine)).id;
    await waitUntil('the sixth event in the feed', visible(6), 30_000);
    const fresh: string[] = [];
    for await (const event of mine.events.iterate({ after: cursor })) {
      fresh.push(event.data.swap.id);
    }
    expect(fresh).toEqual([next]);
  }, 90_000);

  it('verifies webhooks and handles them with the Node handler, ping included', async () => {
    const received: WebhookEvent[] = [];
    // The secret comes with the endpoint, which needs the receiver's URL first.
    let handle: ReturnType<typeof webhookHandler> | null = null;
    const url = await listenOn((req, res) => {
      void handle?.(req, res);
    });
    const endpoint = await client.webhookEndpoints.create({ url });
    const secret = endpoint.secret!;
    handle = webhookHandler(secret, (event) => {
      received.push(event);
    });
    const ping = await client.webhookEndpoints.ping(endpoint.id);
    expect(ping.httpStatus).toBe(204);
    const [event] = received;
    expect(event.type).toBe('endpoint.ping');
    if (event.type === 'endpoint.ping') {
      expect(event.data.webhookEndpointId).toBe(endpoint.id);
    }
    const body = JSON.stringify(event);
    const headers = signWebhook(secret, event, body);
    expect(verifyWebhook(body, headers, secret)).toEqual(event);
    expect(verifyWebhook(body, new Headers(headers), secret).id).toBe(event.id);
    expect(() => verifyWebhook(`${body} `, headers, secret)).toThrow(WebhookVerificationError);
    const forged = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'webhook-signature': 'v1,AAAA' },
      body,
    });
    expect(forged.status).toBe(400);
    // A redelivery is acknowledged and not handled twice.
    const again = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
    });
    expect(again.status).toBe(204);
    expect(received).toHaveLength(1);
    await client.webhookEndpoints.delete(endpoint.id);
  }, 30_000);

  it('listen forwards each new event to a local URL, signed as the service signs webhooks', async () => {
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const received: WebhookEvent[] = [];
    const handle = webhookHandler(secret, (event) => {
      received.push(event);
    });
    const url = await listenOn((req, res) => {
      void handle(req, res);
    });
    const listener = spawn(
      process.execPath,
      [
        'sdk/dist/cli.js',
        'listen',
        '--forward-to',
        url,
        '--api',
        h.api.url,
        '--secret',
        secret,
        '--interval',
        '100',
      ],
      {
        env: {
          PATH: process.env.PATH,
          SWAP_PARTNERS_CREDENTIAL: `${tester.publicKey}:${tester.secret}`,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let printed = '';
    listener.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    listener.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const exited = new Promise((resolve) => listener.once('exit', resolve));
    try {
      await waitUntil(
        'listen to start',
        () => Promise.resolve(printed.includes('Forwarding events')),
        15_000,
      );
      const swap = await testSwap();
      await client.testHelpers.forceStatus(swap.id, 'failed');
      await waitUntil(
        'both events forwarded',
        () =>
          Promise.resolve(
            received.filter((e) => e.type !== 'endpoint.ping' && e.data.swap.id === swap.id)
              .length === 2,
          ),
        30_000,
      );
      const ofSwap = received.filter(
        (e) => e.type !== 'endpoint.ping' && e.data.swap.id === swap.id,
      );
      expect(ofSwap.map((e) => e.type)).toEqual(['swap.created', 'swap.status_changed']);
      expect(printed).toMatch(/swap\.created\s+evt_[0-9a-f]{24}\s+-> 204/);
    } finally {
      listener.kill('SIGTERM');
      await exited;
    }
  }, 90_000);

  it('packs into a tarball with its types, its command and its README', async () => {
    const { stdout } = await run(
      'npm',
      ['pack', '--json', '--ignore-scripts', '--pack-destination', work],
      {
        cwd: join(ROOT, 'sdk'),
      },
    );
    const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
    const files = packed.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/client.d.ts',
        'dist/schema.d.ts',
        'dist/webhooks.d.ts',
        'dist/cli.js',
      ]),
    );
    const { stdout: listing } = await run('tar', ['-tzf', join(work, packed.filename)]);
    expect(listing).toContain('package/dist/index.d.ts');
    const manifest = JSON.parse(await readFile(join(ROOT, 'sdk', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      exports: { '.': { types: string } };
    };
    expect(Object.keys(manifest.dependencies).sort()).toEqual([
      'openapi-fetch',
      'standardwebhooks',
    ]);
    expect(manifest.exports['.'].types).toBe('./dist/index.d.ts');
  }, 30_000);

  it('is publishable: a LICENSE, a CHANGELOG, the sources of its maps, a version of its API', async () => {
    const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--dry-run'], {
      cwd: join(ROOT, 'sdk'),
    });
    const files = (JSON.parse(stdout) as { files: { path: string }[] }[])[0].files.map(
      (f) => f.path,
    );
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'CHANGELOG.md']));
    // Every source a shipped map names is shipped beside it.
    const named = await Promise.all(
      files
        .filter((file) => file.endsWith('.js.map'))
        .map(async (file) => {
          const map = JSON.parse(await readFile(join(ROOT, 'sdk', file), 'utf8')) as {
            sources: string[];
          };
          return map.sources.map((source) => join(file, '..', source));
        }),
    );
    expect(named.flat().filter((source) => !files.includes(source))).toEqual([]);
    // The SDK's major.minor is the document's: a partner reads the API version off the package.
    const { version } = JSON.parse(await readFile(join(ROOT, 'sdk', 'package.json'), 'utf8')) as {
      version: string;
    };
    const document = (await request(h.api.url).get('/v1/openapi.json').expect(200)).body as {
      info: { version: string };
    };
    expect(version.split('.').slice(0, 2)).toEqual(document.info.version.split('.').slice(0, 2));
    await expect(readFile(join(ROOT, 'sdk', 'CHANGELOG.md'), 'utf8')).resolves.toContain(
      `## ${version}`,
    );
    // The registry's dry run finds nothing to correct; only the login it would need is missing.
    const { stderr } = await run('npm', ['publish', '--dry-run', '--ignore-scripts'], {
      cwd: join(ROOT, 'sdk'),
    });
    const warnings = stderr
      .split('\n')
      .filter((line) => /\bwarn\b/i.test(line) && !/requires you to be logged in/.test(line));
    expect(warnings).toEqual([]);
  }, 60_000);

  it("types each error's code: a misspelt code does not compile, an operation's own code does", async () => {
    const dir = join(work, 'typed-codes');
    await mkdir(join(dir, 'node_modules'), { recursive: true });
    await symlink(join(ROOT, 'sdk'), join(dir, 'node_modules', 'swap-partners'), 'dir');
    await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    const program = (code: string) =>
      [
        "import { isErrorOf, SwapPartnersError } from 'swap-partners';",
        'export function handle(error: unknown): string {',
        `  if (error instanceof SwapPartnersError && error.code === '${code}') return 'any';`,
        `  if (isErrorOf(error, 'Swaps_create') && error.code === '${code}') return 'create';`,
        "  if (isErrorOf(error, 'Swaps_get') && error.code === 'not_found') return 'get';",
        "  return 'other';",
        '}',
      ].join('\n');
    const tsc = async (code: string) => {
      await writeFile(join(dir, 'handle.ts'), program(code));
      const args = ['--noEmit', '--strict', '--module', 'nodenext', '--skipLibCheck'];
      return run(join(ROOT, 'node_modules', '.bin', 'tsc'), [...args, 'handle.ts'], {
        cwd: dir,
      }).then(
        () => '',
        (failed: { stdout: string }) => failed.stdout,
      );
    };
    await expect(tsc('rate_expired')).resolves.toBe('');
    const misspelt = await tsc('rate_expird');
    expect(misspelt).toContain('handle.ts(3,');
    expect(misspelt).toContain('handle.ts(4,');
    expect(misspelt).toMatch(/TS2367.*'"rate_expird"' have no overlap/);
    // A code of the API that the operation never answers is as wrong as a misspelt one.
    const foreign = await tsc('test_mode_only');
    expect(foreign).not.toContain('handle.ts(3,');
    expect(foreign).toContain('handle.ts(4,');
  }, 120_000);
});
