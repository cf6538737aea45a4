import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCode } from '#app/errors';
import { MemoryStore } from '#app/redis';
import { ChangellyAdapter, type ChangellyAdapterOptions } from './changelly.adapter.js';
import type {
  WireCreatedTransaction,
  WireCurrency,
  WireFixedQuote,
  WireFloatQuote,
  WirePairParams,
  WireTransaction,
} from './changelly.wire.js';
import type { UpstreamCallEvent } from './upstream-call.runner.js';
import type { UpstreamGate } from '#app/rate-limit';
import type { QuoteRequest } from './liquidity-provider.js';
import { ProviderError } from './provider.error.js';
import { verifyProviderRequest } from './request-signer.js';

interface ReceivedCall {
  id: unknown;
  method: string;
  params: unknown;
  /** The body as sent, byte for byte. */
  body: string;
  signed: boolean;
}

/** What the provider does with a call: an HTTP answer, or nothing at all. */
type Reply = { status: number; body: string } | 'hang';

const result = (call: ReceivedCall, value: unknown): Reply => ({
  status: 200,
  body: JSON.stringify({ jsonrpc: '2.0', id: call.id, result: value }),
});

const rpcError = (call: ReceivedCall, code: number, message: string): Reply => ({
  status: 200,
  body: JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code, message } }),
});

/**
 * A provider on a real local HTTP port that verifies signatures like the real one and answers
 * each method as the test says.
 */
class ScriptedProvider {
  readonly calls: ReceivedCall[] = [];
  private readonly replies = new Map<string, (call: ReceivedCall) => Reply>();
  private readonly server: Server;

  constructor(private readonly publicKey: KeyObject) {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  on(method: string, reply: (call: ReceivedCall) => Reply): void {
    this.replies.set(method, reply);
  }

  reset(): void {
    this.calls.length = 0;
    this.replies.clear();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) {
      chunks.push(chunk as Buffer);
    }
    const bytes = Buffer.concat(chunks);
    const request = JSON.parse(bytes.toString()) as {
      id: unknown;
      method: string;
      params: unknown;
    };
    const call: ReceivedCall = {
      id: request.id,
      method: request.method,
      params: request.params,
      body: bytes.toString(),
      signed: verifyProviderRequest(
        this.publicKey,
        bytes,
        req.headers['x-api-key'] as string | undefined,
        req.headers['x-api-signature'] as string | undefined,
      ),
    };
    this.calls.push(call);
    const reply = this.replies.get(call.method)?.(call) ?? rpcError(call, -32601, 'Not found');
    if (reply !== 'hang') {
      res.writeHead(reply.status, { 'Content-Type': 'application/json' }).end(reply.body);
    }
  }
}

/** Admits a call only when the test releases it. */
class ManualGate implements UpstreamGate {
  acquired = 0;
  private readonly waiting: (() => void)[] = [];

  acquire(): Promise<void> {
    this.acquired++;
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    this.waiting.shift()?.();
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const BTC: WireCurrency = {
  ticker: 'btc',
  fullName: 'Bitcoin',
  enabled: true,
  enabledFrom: true,
  enabledTo: true,
  fixRateEnabled: true,
  payinConfirmations: 2,
  extraIdName: null,
  addressUrl: 'https://explorer/address/%1$s',
  transactionUrl: 'https://explorer/tx/%1$s',
  image: 'https://img/btc.svg',
  fixedTime: 1200000,
  protocol: 'btc',
  blockchain: 'bitcoin',
  blockchainPrecision: 8,
};

const FLOAT_QUOTE: WireFloatQuote = {
  from: 'btc',
  to: 'eth',
  amountFrom: '0.1',
  amountTo: '1.52',
  networkFee: '0.002',
  rate: '15.2',
  fee: '0.0076',
  min: '0.001',
  max: '20',
  minFrom: '0.001',
  maxFrom: '20',
  visibleAmount: '1.5276',
};

const FIXED_QUOTE: WireFixedQuote = {
  id: 'rate-1',
  result: '15.1',
  from: 'btc',
  to: 'eth',
  amountFrom: '0.1',
  amountTo: '1.51',
  networkFee: '0.002',
  min: '0.002',
  max: '10',
  expiredAt: 1_767_225_600,
};

const CREATED: WireCreatedTransaction = {
  id: 'tx-1',
  type: 'float',
  status: 'new',
  currencyFrom: 'btc',
  currencyTo: 'eth',
  payinAddress: 'bc1qpayin',
  payinExtraId: null,
  payoutAddress: '0xpayout',
  payoutExtraId: null,
  refundAddress: null,
  userMetadata: null,
  amountExpectedFrom: '0.1',
  amountExpectedTo: '1.518',
  networkFee: '0.002',
  rate: '15.2',
  payTill: null,
  createdAt: 1_767_225_600_123_456,
};

const WAITING: WireTransaction = {
  id: 'tx-1',
  type: 'float',
  status: 'waiting',
  currencyFrom: 'btc',
  currencyTo: 'eth',
  payinAddress: 'bc1qpayin',
  payoutAddress: '0xpayout',
  refundAddress: null,
  userMetadata: null,
  amountExpectedFrom: '0.1',
  amountExpectedTo: '1.518',
  amountFrom: '0',
  amountTo: '0',
  networkFee: '0.002',
  rate: '15.2',
  payinHash: null,
  payoutHash: null,
  refundHash: null,
  moneyReceived: 0,
  moneySent: 0,
  createdAt: 1_767_225_600,
  payTill: null,
};

async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  const error: unknown = await promise.then(
    () => new Error('expected a ProviderError'),
    (e: unknown) => e,
  );
  if (error instanceof ProviderError) {
    return error;
  }
  throw error;
}

describe(ChangellyAdapter.name, () => {
  let privateKey: KeyObject;
  let provider: ScriptedProvider;
  let events: UpstreamCallEvent[];
  let sut: ChangellyAdapter;

  const adapter = (options: ChangellyAdapterOptions = {}, timeoutMs = 5000) =>
    new ChangellyAdapter(
      { url: provider.url, privateKey, timeoutMs },
      { cache: new MemoryStore(), onCall: (event) => events.push(event), ...options },
    );

  beforeAll(async () => {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    privateKey = pair.privateKey;
    provider = new ScriptedProvider(pair.publicKey);
    await provider.start();
  });

  beforeEach(() => {
    provider.reset();
    events = [];
    sut = adapter();
  });

  afterAll(async () => {
    await provider.close();
  });

  describe('requests', () => {
    it('sends one signed, compact JSON-RPC 2.0 body per call', async () => {
      provider.on('getExchangeAmount', (call) => result(call, [FLOAT_QUOTE]));

      await sut.getFloatQuote({ from: 'btc', to: 'eth', amountFrom: '0.1' });

      expect(provider.calls).toHaveLength(1);
      const [call] = provider.calls;
      expect(call.signed).toBe(true);
      expect(call.body).toBe(
        JSON.stringify({
          jsonrpc: '2.0',
          id: call.id,
          method: 'getExchangeAmount',
          params: [{ from: 'btc', to: 'eth', amountFrom: '0.1' }],
        }),
      );
      expect(call.id).toEqual(expect.any(String));
    });

    it('asks for at most 10 transactions per call', async () => {
      provider.on('getTransactions', (call) => {
        const { id } = call.params as { id: string[] };
        return result(
          call,
          id.map((txId) => ({ ...WAITING, id: txId })),
        );
      });
      const ids = Array.from({ length: 12 }, (_, i) => `tx-${i}`);

      const found = await sut.getTransactions({ ids });

      expect(found.map((t) => t.id)).toEqual(ids);
      expect(provider.calls.map((c) => c.params)).toEqual([
        { id: ids.slice(0, 10), limit: 10, offset: 0 },
        { id: ids.slice(10), limit: 2, offset: 0 },
      ]);
    });

    it('sends a refund address only when there is one', async () => {
      provider.on('createTransaction', (call) => result(call, CREATED));

      await sut.createTransaction({ from: 'btc', to: 'eth', amountFrom: '0.1', address: '0xp' });
      await sut.createTransaction({
        from: 'btc',
        to: 'eth',
        amountFrom: '0.1',
        address: '0xp',
        refundAddress: 'bc1qr',
      });

      expect(provider.calls.map((c) => c.params)).toEqual([
        { from: 'btc', to: 'eth', amountFrom: '0.1', address: '0xp' },
        { from: 'btc', to: 'eth', amountFrom: '0.1', address: '0xp', refundAddress: 'bc1qr' },
      ]);
    });
  });

  describe('answers', () => {
    it('reads currencies without the wire-only fields', async () => {
      provider.on('getCurrenciesFull', (call) => result(call, [BTC]));

      await expect(sut.getCurrencies()).resolves.toEqual([
        {
          ticker: 'btc',
          fullName: 'Bitcoin',
          enabled: true,
          enabledFrom: true,
          enabledTo: true,
          fixRateEnabled: true,
          payinConfirmations: 2,
          extraIdName: null,
          image: 'https://img/btc.svg',
          blockchain: 'bitcoin',
          blockchainPrecision: 8,
        },
      ]);
    });

    it('picks the asked pair among the params and keeps amounts as plain decimal strings', async () => {
      const params: WirePairParams[] = [
        {
          from: 'ltc',
          to: 'eth',
          minAmountFloat: '1',
          maxAmountFloat: '2',
          minAmountFixed: '1',
          maxAmountFixed: '2',
        },
        {
          from: 'btc',
          to: 'eth',
          minAmountFloat: '1e-7',
          maxAmountFloat: '20',
          minAmountFixed: '0.002',
          maxAmountFixed: '10.50',
        },
      ];
      provider.on('getPairsParams', (call) => result(call, params));

      await expect(sut.getPairParams('btc', 'eth')).resolves.toEqual({
        from: 'btc',
        to: 'eth',
        minAmountFloat: '0.0000001',
        maxAmountFloat: '20',
        minAmountFixed: '0.002',
        maxAmountFixed: '10.5',
      });
    });

    it('reads a fixed quote with its rate id and an ISO expiry', async () => {
      provider.on('getFixRateForAmount', (call) => result(call, [FIXED_QUOTE]));

      await expect(
        sut.getFixedQuote({ from: 'btc', to: 'eth', amountFrom: '0.1' }),
      ).resolves.toEqual({
        rateId: 'rate-1',
        from: 'btc',
        to: 'eth',
        amountFrom: '0.1',
        amountTo: '1.51',
        networkFee: '0.002',
        rate: '15.1',
        min: '0.002',
        max: '10',
        expiresAt: '2026-01-01T00:00:00.000Z',
      });
    });

    it('reads a created transaction as waiting, its microsecond creation time as ISO', async () => {
      provider.on('createTransaction', (call) => result(call, CREATED));

      const created = await sut.createTransaction({
        from: 'btc',
        to: 'eth',
        amountFrom: '0.1',
        address: '0xpayout',
      });

      expect(created).toMatchObject({
        id: 'tx-1',
        status: 'waiting',
        createdAt: '2026-01-01T00:00:00.123Z',
        amountActualFrom: null,
        moneyReceivedAt: null,
      });
    });

    it('reports actual amounts only once the money moved', async () => {
      const sent: WireTransaction = {
        ...WAITING,
        id: 'tx-2',
        status: 'finished',
        amountFrom: '0.1',
        amountTo: '1.517',
        networkFee: '0.003',
        payinHash: 'in',
        payoutHash: 'out',
        moneyReceived: 1_767_225_660,
        moneySent: 1_767_225_720,
      };
      provider.on('getTransactions', (call) => result(call, [WAITING, sent]));

      const [waiting, finished] = await sut.getTransactions({ payoutAddress: '0xpayout' });

      expect(waiting).toMatchObject({
        status: 'waiting',
        amountActualFrom: null,
        amountActualTo: null,
        actualNetworkFee: null,
        moneyReceivedAt: null,
        createdAt: '2026-01-01T00:00:00.000Z',
      });
      expect(finished).toMatchObject({
        status: 'finished',
        amountActualFrom: '0.1',
        amountActualTo: '1.517',
        actualNetworkFee: '0.003',
        moneyReceivedAt: '2026-01-01T00:01:00.000Z',
        moneySentAt: '2026-01-01T00:02:00.000Z',
      });
      expect(provider.calls[0].params).toEqual({ payoutAddress: '0xpayout', limit: 10, offset: 0 });
    });

    it('passes on the message of a refused address', async () => {
      provider.on('validateAddress', (call) =>
        result(call, { result: false, message: 'Invalid checksum' }),
      );

      await expect(sut.validateAddress('eth', '0xbad')).resolves.toEqual({
        result: false,
        message: 'Invalid checksum',
      });
    });
  });

  describe('failures', () => {
    it('gives up after its timeout with upstream_unavailable', async () => {
      provider.on('getExchangeAmount', () => 'hang');
      const impatient = adapter({}, 200);
      const started = performance.now();

      const error = await providerError(
        impatient.getFloatQuote({ from: 'btc', to: 'eth', amountFrom: '0.1' }),
      );

      expect(performance.now() - started).toBeGreaterThanOrEqual(150);
      expect(performance.now() - started).toBeLessThan(5000);
      expect(error).toMatchObject({
        code: ErrorCode.UpstreamUnavailable,
        status: 503,
        method: 'getExchangeAmount',
        upstreamMessage: 'timeout after 200 ms',
      });
    });

    it('maps a refused connection to upstream_unavailable', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const { port } = closed.address() as AddressInfo;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const unreachable = new ChangellyAdapter({
        url: `http://127.0.0.1:${port}/`,
        privateKey,
        timeoutMs: 5000,
      });

      const error = await providerError(unreachable.validateAddress('btc', 'x'));

      expect(error).toMatchObject({ code: ErrorCode.UpstreamUnavailable, status: 503 });
    });

    it.each([
      ['a body that is not JSON', { status: 200, body: '<html>busy</html>' }],
      ['JSON without a result', { status: 200, body: '{"jsonrpc":"2.0","id":"1"}' }],
      ['a result of the wrong shape', { status: 200, body: '{"jsonrpc":"2.0","result":{}}' }],
      ['an HTTP status other than 200', { status: 404, body: '{"jsonrpc":"2.0","result":[]}' }],
    ])('maps %s to upstream_bad_response', async (_case, reply) => {
      provider.on('getCurrenciesFull', () => reply);

      const error = await providerError(sut.getCurrencies());

      expect(error).toMatchObject({
        code: ErrorCode.UpstreamBadResponse,
        status: 502,
        method: 'getCurrenciesFull',
      });
    });

    it('maps a mistyped field to upstream_bad_response naming it', async () => {
      provider.on('getExchangeAmount', (call) =>
        result(call, [{ ...FLOAT_QUOTE, amountTo: 'lots' }]),
      );

      const error = await providerError(
        sut.getFloatQuote({ from: 'btc', to: 'eth', amountFrom: '0.1' }),
      );

      expect(error.code).toBe(ErrorCode.UpstreamBadResponse);
      expect(error.upstreamMessage).toContain('result[0].amountTo');
    });

    it('maps an unknown status word to upstream_bad_response', async () => {
      provider.on('getTransactions', (call) => result(call, [{ ...WAITING, status: 'lost' }]));

      const error = await providerError(sut.getTransactions({ ids: ['tx-1'] }));

      expect(error.code).toBe(ErrorCode.UpstreamBadResponse);
    });

    it.each([
      ['getExchangeAmount', (a: ChangellyAdapter, r: QuoteRequest) => a.getFloatQuote(r)],
      ['getFixRateForAmount', (a: ChangellyAdapter, r: QuoteRequest) => a.getFixedQuote(r)],
    ] as const)('maps an empty %s answer to upstream_empty_quote', async (method, quote) => {
      provider.on(method, (call) => result(call, []));

      const error = await providerError(quote(sut, { from: 'btc', to: 'eth', amountFrom: '0.1' }));

      expect(error).toMatchObject({ code: ErrorCode.UpstreamEmptyQuote, status: 502, method });
    });

    it.each([
      [
        -32600,
        'Invalid amount: minimal amount is 0.0015',
        { code: ErrorCode.AmountBelowMin, status: 400, param: 'amountFrom', bound: '0.0015' },
      ],
      [-32600, 'You reached requests limit', { code: ErrorCode.UpstreamRateLimited, status: 429 }],
      [-32600, 'Unauthorized', { code: ErrorCode.UpstreamNotConfigured, status: 503 }],
      [
        -32602,
        'rateId was expired or already used',
        { code: ErrorCode.RateExpired, status: 409, param: 'rateId' },
      ],
      [
        -32602,
        'Invalid currency pair',
        { code: ErrorCode.InvalidRequest, status: 400, param: 'pair' },
      ],
      [-32603, 'Internal error', { code: ErrorCode.UpstreamError, status: 502 }],
    ])('maps the JSON-RPC error %d "%s"', async (code, message, expected) => {
      provider.on('createFixTransaction', (call) => rpcError(call, code, message));

      const error = await providerError(
        sut.createFixedTransaction({
          from: 'btc',
          to: 'eth',
          amountFrom: '0.1',
          rateId: 'rate-1',
          address: '0xpayout',
          refundAddress: 'bc1qrefund',
        }),
      );

      expect(error).toMatchObject({
        ...expected,
        upstreamCode: code,
        upstreamMessage: message,
        method: 'createFixTransaction',
      });
    });

    it.each([
      [429, ErrorCode.UpstreamRateLimited, 429],
      [500, ErrorCode.UpstreamUnavailable, 503],
      [502, ErrorCode.UpstreamUnavailable, 503],
      [401, ErrorCode.UpstreamNotConfigured, 503],
      [403, ErrorCode.UpstreamNotConfigured, 503],
    ])(
      'maps HTTP %d with no JSON-RPC error in its body to %s',
      async (httpStatus, code, status) => {
        provider.on('validateAddress', () => ({ status: httpStatus, body: '{"message":"no"}' }));

        const error = await providerError(sut.validateAddress('btc', 'x'));

        expect(error).toMatchObject({ code, status });
      },
    );
  });

  describe('call events', () => {
    it('tells the listener about every call with its method and outcome', async () => {
      provider.on('validateAddress', (call) => result(call, { result: true }));
      provider.on('getExchangeAmount', (call) =>
        rpcError(call, -32600, 'Invalid amount: minimal amount is 1'),
      );

      await sut.validateAddress('btc', 'x');
      await providerError(sut.getFloatQuote({ from: 'btc', to: 'eth', amountFrom: '0.1' }));

      expect(events).toEqual([
        {
          provider: 'changelly',
          method: 'validateAddress',
          outcome: 'ok',
          latencyMs: expect.any(Number),
        },
        {
          provider: 'changelly',
          method: 'getExchangeAmount',
          outcome: ErrorCode.AmountBelowMin,
          latencyMs: expect.any(Number),
        },
      ]);
    });
  });

  describe('upstream gate', () => {
    it('waits for the gate before every call', async () => {
      const gate = new ManualGate();
      sut = adapter({ gate });
      provider.on('getExchangeAmount', (call) => result(call, [FLOAT_QUOTE]));

      const first = sut.getFloatQuote({ from: 'btc', to: 'eth', amountFrom: '0.1' });
      await sleep(100);
      expect(gate.acquired).toBe(1);
      expect(provider.calls).toHaveLength(0);

      gate.release();
      await expect(first).resolves.toMatchObject({ amountTo: '1.52' });
      const second = sut.getFloatQuote({ from: 'btc', to: 'eth', amountFrom: '0.1' });
      await sleep(100);
      expect(gate.acquired).toBe(2);
      expect(provider.calls).toHaveLength(1);

      gate.release();
      await second;
      expect(provider.calls).toHaveLength(2);
    });

    it('sends nothing and reports no call when the gate refuses', async () => {
      const refusal = new Error('no budget left');
      sut = adapter({ gate: { acquire: () => Promise.reject(refusal) } });

      await expect(sut.validateAddress('btc', 'x')).rejects.toBe(refusal);

      expect(provider.calls).toHaveLength(0);
      expect(events).toEqual([]);
    });
  });

  describe('caching', () => {
    it('answers repeated catalogue reads without a call or a gate slot', async () => {
      let acquired = 0;
      const gate: UpstreamGate = {
        acquire: () => {
          acquired++;
          return Promise.resolve();
        },
      };
      sut = adapter({ gate });
      provider.on('getCurrenciesFull', (call) => result(call, [BTC]));
      provider.on('getPairsParams', (call) => {
        const [{ from, to }] = call.params as [{ from: string; to: string }];
        return result(call, [
          {
            from,
            to,
            minAmountFloat: '1',
            maxAmountFloat: '2',
            minAmountFixed: '1',
            maxAmountFixed: '2',
          },
        ]);
      });

      await Promise.all([sut.getCurrencies(), sut.getCurrencies()]);
      await sut.getCurrencies();
      await sut.getPairParams('btc', 'eth');
      await sut.getPairParams('btc', 'eth');
      await sut.getPairParams('eth', 'btc');

      expect(provider.calls.map((c) => c.method)).toEqual([
        'getCurrenciesFull',
        'getPairsParams',
        'getPairsParams',
      ]);
      expect(acquired).toBe(3);
    });

    it('shares its catalogue reads with adapters on the same store and endpoint', async () => {
      const cache = new MemoryStore();
      provider.on('getCurrenciesFull', (call) => result(call, [BTC]));

      await adapter({ cache }).getCurrencies();
      const fromReplica = await adapter({ cache }).getCurrencies();

      expect(fromReplica.map((c) => c.ticker)).toEqual(['btc']);
      expect(provider.calls).toHaveLength(1);
      await cache.close();
    });

    it('loads the catalogue again once its time in the cache is over', async () => {
      sut = adapter({ currenciesTtlMs: 30 });
      provider.on('getCurrenciesFull', (call) => result(call, [BTC]));

      await sut.getCurrencies();
      await sleep(80);
      await sut.getCurrencies();

      expect(provider.calls).toHaveLength(2);
    });

    it('does not cache a failure', async () => {
      provider.on('getCurrenciesFull', () => ({ status: 500, body: '' }));
      await providerError(sut.getCurrencies());
      provider.on('getCurrenciesFull', (call) => result(call, [BTC]));

      await expect(sut.getCurrencies()).resolves.toHaveLength(1);
      expect(provider.calls).toHaveLength(2);
    });
  });
});
