import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { Decimal } from 'decimal.js';
import { DECIMAL_STRING } from '#app/domain';
import { generateAddress, validateAddress } from '#app/chains';
import { ErrorCode } from '#app/errors';
import { Test } from '@nestjs/testing';
import { CoreModule } from '#app/core';
import { KEY_VALUE_STORE, MemoryStore, type KeyValueStore } from '#app/redis';
import {
  ChangellyAdapter,
  PROVIDER_FLEET,
  ProviderError,
  ProviderModule,
  providerAuthHeaders,
  type ProviderFleet,
} from '#app/provider';
import { testDatabaseUrl, testRedisPrefix, testRedisUrl } from './support/database.js';
import { providerKeyPair } from './support/keys.js';
import { startTestSandbox, testProviderConfig, type TestSandbox } from './support/sandbox.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const random = (n: number) => randomBytes(n);
const ethAddress = () => generateAddress('ethereum', random);
const btcAddress = () => generateAddress('bitcoin', random);

async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
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

describe(ChangellyAdapter.name, () => {
  let sandbox: TestSandbox;
  let sut: ChangellyAdapter;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    sut = new ChangellyAdapter(testProviderConfig(sandbox.url), { cache: new MemoryStore() });
  });

  afterEach(async () => {
    await sandbox.control.clearFaults();
  });

  afterAll(async () => {
    await sandbox.close();
  });

  describe('round trips', () => {
    it('lists a realistic catalogue and caches it', async () => {
      const before = (await sandbox.control.stats()).calls.getCurrenciesFull ?? 0;

      const currencies = await sut.getCurrencies();
      await sut.getCurrencies();

      expect(currencies.length).toBeGreaterThanOrEqual(15);
      expect(new Set(currencies.map((c) => c.blockchain)).size).toBeGreaterThanOrEqual(8);
      expect(currencies.filter((c) => c.extraIdName !== null).length).toBeGreaterThanOrEqual(2);
      expect(currencies.some((c) => !c.enabled)).toBe(true);
      expect(currencies.some((c) => c.enabled && c.enabledFrom && !c.enabledTo)).toBe(true);
      for (const c of currencies) {
        expect(c).toEqual({
          ticker: expect.stringMatching(/^[a-z0-9]+$/),
          fullName: expect.any(String),
          enabled: expect.any(Boolean),
          enabledFrom: expect.any(Boolean),
          enabledTo: expect.any(Boolean),
          fixRateEnabled: expect.any(Boolean),
          payinConfirmations: expect.any(Number),
          extraIdName: c.extraIdName === null ? null : expect.any(String),
          image: c.image === null ? null : expect.any(String),
          blockchain: expect.any(String),
          blockchainPrecision: expect.any(Number),
        });
      }
      expect((await sandbox.control.stats()).calls.getCurrenciesFull).toBe(before + 1);
    });

    it('reads pair params as decimal strings, fixed inside float, and caches them', async () => {
      const pair = await sut.getPairParams('btc', 'eth');
      await sut.getPairParams('btc', 'eth');

      expect(pair.from).toBe('btc');
      for (const value of [
        pair.minAmountFloat,
        pair.maxAmountFloat,
        pair.minAmountFixed,
        pair.maxAmountFixed,
      ]) {
        expect(value).toMatch(DECIMAL_STRING);
      }
      expect(new Decimal(pair.minAmountFixed).gte(pair.minAmountFloat)).toBe(true);
      expect(new Decimal(pair.maxAmountFixed).lte(pair.maxAmountFloat)).toBe(true);
      expect((await sandbox.control.stats()).calls.getPairsParams).toBe(1);
    });

    it('quotes float and fixed with ISO expiry', async () => {
      const float = await sut.getFloatQuote({ from: 'btc', to: 'eth', amountFrom: '0.1' });
      const fixed = await sut.getFixedQuote({ from: 'btc', to: 'eth', amountFrom: '0.1' });

      expect(float).toEqual({
        from: 'btc',
        to: 'eth',
        amountFrom: '0.1',
        amountTo: expect.stringMatching(DECIMAL_STRING),
        networkFee: expect.stringMatching(DECIMAL_STRING),
        rate: expect.stringMatching(DECIMAL_STRING),
        fee: expect.stringMatching(DECIMAL_STRING),
        min: expect.stringMatching(DECIMAL_STRING),
        max: expect.stringMatching(DECIMAL_STRING),
      });
      expect(fixed.rateId).toEqual(expect.any(String));
      expect(fixed.expiresAt).toMatch(ISO);
      const ttl = Date.parse(fixed.expiresAt) - Date.now();
      expect(ttl).toBeGreaterThan(50_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
      expect(new Decimal(fixed.amountTo).lt(float.amountTo)).toBe(true);
    });

    it('creates a float transaction in status waiting with a checksummed payin address', async () => {
      const address = ethAddress();
      const sutTx = await sut.createTransaction({
        from: 'btc',
        to: 'eth',
        amountFrom: '0.05',
        address,
      });

      expect(sutTx).toMatchObject({
        status: 'waiting',
        from: 'btc',
        to: 'eth',
        payoutAddress: address,
        refundAddress: null,
        amountExpectedFrom: '0.05',
        payTill: null,
        payinHash: null,
        amountActualFrom: null,
      });
      expect(validateAddress('bitcoin', sutTx.payinAddress)).toEqual({ valid: true });
      expect(sutTx.createdAt).toMatch(ISO);
      expect(Math.abs(Date.parse(sutTx.createdAt) - Date.now())).toBeLessThan(5000);
    });

    it('creates a fixed transaction once per rate id', async () => {
      const quote = await sut.getFixedQuote({ from: 'eth', to: 'btc', amountFrom: '1' });
      const request = {
        from: 'eth',
        to: 'btc',
        amountFrom: '1',
        rateId: quote.rateId,
        address: btcAddress(),
        refundAddress: ethAddress(),
      };

      const created = await sut.createFixedTransaction(request);
      const reused = await providerError(sut.createFixedTransaction(request));

      expect(created.payTill).toMatch(ISO);
      expect(created.amountExpectedTo).toBe(
        new Decimal(quote.amountTo).minus(quote.networkFee).toFixed(),
      );
      expect(reused).toMatchObject({
        code: ErrorCode.RateExpired,
        status: 409,
        upstreamCode: -32602,
        param: 'rateId',
        method: 'createFixTransaction',
      });
    });

    it('reads transactions by ids in batches of at most 10', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) {
        ids.push(
          (
            await sut.createTransaction({
              from: 'ltc',
              to: 'trx',
              amountFrom: '1',
              address: generateAddress('tron', random),
            })
          ).id,
        );
      }
      const before = (await sandbox.control.stats()).getTransactions.idsPerCall.length;

      const found = await sut.getTransactions({ ids });

      expect(found.map((t) => t.id).sort()).toEqual([...ids].sort());
      expect((await sandbox.control.stats()).getTransactions.idsPerCall.slice(before)).toEqual([
        10, 2,
      ]);
      expect(found[0]).toMatchObject({
        status: 'waiting',
        from: 'ltc',
        to: 'trx',
        createdAt: expect.stringMatching(ISO),
      });
    });

    it('reads transactions by payout address, newest first', async () => {
      const payout = ethAddress();
      const older = await sut.createTransaction({
        from: 'btc',
        to: 'eth',
        amountFrom: '0.05',
        address: payout,
      });
      const newer = await sut.createTransaction({
        from: 'ltc',
        to: 'eth',
        amountFrom: '2',
        address: payout,
      });

      const found = await sut.getTransactions({ payoutAddress: payout });

      expect(found.map((t) => t.id)).toEqual([newer.id, older.id]);
    });

    it('validates addresses strictly', async () => {
      await expect(
        sut.validateAddress('btc', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'),
      ).resolves.toEqual({ result: true });
      const bad = await sut.validateAddress('eth', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD');
      expect(bad.result).toBe(false);
      expect(bad.message).toMatch(/checksum/);
    });
  });

  describe('upstream rejections', () => {
    it('maps a too small amount to amount_below_min with the bound', async () => {
      const error = await providerError(
        sut.getFloatQuote({ from: 'btc', to: 'eth', amountFrom: '0.00000001' }),
      );
      expect(error).toMatchObject({
        code: ErrorCode.AmountBelowMin,
        status: 400,
        param: 'amountFrom',
        upstreamCode: -32600,
      });
      expect(error.bound).toMatch(DECIMAL_STRING);
      expect(error.message).toContain(error.bound);
    });

    it('maps a too large amount to amount_above_max', async () => {
      const error = await providerError(
        sut.getFixedQuote({ from: 'btc', to: 'eth', amountFrom: '1000' }),
      );
      expect(error).toMatchObject({
        code: ErrorCode.AmountAboveMax,
        status: 400,
        param: 'amountFrom',
      });
    });

    it('tells an unavailable pair from a rejected address', async () => {
      const pair = await providerError(
        sut.getFloatQuote({ from: 'btc', to: 'dash', amountFrom: '0.1' }),
      );
      const address = await providerError(
        sut.createTransaction({
          from: 'btc',
          to: 'eth',
          amountFrom: '0.1',
          address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD',
        }),
      );
      expect(pair).toMatchObject({
        code: ErrorCode.InvalidRequest,
        upstreamCode: -32602,
        param: 'pair',
      });
      expect(address).toMatchObject({
        code: ErrorCode.InvalidRequest,
        upstreamCode: -32602,
        param: null,
        upstreamMessage: expect.stringMatching(/address/i),
      });
    });
  });

  describe('faults', () => {
    it.each([
      ['non_json', {}, ErrorCode.UpstreamBadResponse, 502],
      ['empty_result', {}, ErrorCode.UpstreamEmptyQuote, 502],
      [
        'rpc_error',
        { code: -32600, message: 'Invalid amount: minimal amount is 0.5' },
        ErrorCode.AmountBelowMin,
        400,
      ],
      [
        'rpc_error',
        { code: -32600, message: 'Invalid amount: maximal amount is 7' },
        ErrorCode.AmountAboveMax,
        400,
      ],
      [
        'rpc_error',
        { code: -32602, message: 'Invalid currency pair' },
        ErrorCode.InvalidRequest,
        400,
      ],
      [
        'rpc_error',
        { code: -32602, message: 'rateId was expired or already used' },
        ErrorCode.RateExpired,
        409,
      ],
      ['rpc_error', { code: -32603, message: 'Internal error' }, ErrorCode.UpstreamError, 502],
      ['rate_limit', {}, ErrorCode.UpstreamRateLimited, 429],
      ['http_500', {}, ErrorCode.UpstreamUnavailable, 503],
    ] as const)('maps %s %j to %s (%d)', async (mode, extra, code, status) => {
      await sandbox.control.setFault({ method: 'getExchangeAmount', mode, ...extra });

      const error = await providerError(
        sut.getFloatQuote({ from: 'btc', to: 'eth', amountFrom: '0.1' }),
      );

      expect(error).toMatchObject({ code, status, method: 'getExchangeAmount' });
      if ('code' in extra) {
        expect(error.upstreamCode).toBe(extra.code);
      }
      if (mode === 'rate_limit') {
        expect(error.retryAfterMs).toBe(1000);
      }
    });

    it('maps an empty fixed quote to upstream_empty_quote', async () => {
      await sandbox.control.setFault({ method: 'getFixRateForAmount', mode: 'empty_result' });
      const error = await providerError(
        sut.getFixedQuote({ from: 'btc', to: 'eth', amountFrom: '0.1' }),
      );
      expect(error.code).toBe(ErrorCode.UpstreamEmptyQuote);
    });

    it('gives up after its own timeout and maps it to 503', async () => {
      await sandbox.control.setFault({ method: '*', mode: 'timeout', delayMs: 10_000 });
      const impatient = new ChangellyAdapter(testProviderConfig(sandbox.url, 1500));
      const started = Date.now();

      const error = await providerError(impatient.getTransactions({ ids: ['anything'] }));

      // Long before the sandbox's 10 s: its own 1.5 s, whatever the machine's load adds.
      expect(Date.now() - started).toBeLessThan(8000);
      expect(error).toMatchObject({
        code: ErrorCode.UpstreamUnavailable,
        status: 503,
        type: 'upstream_error',
      });
    });

    it('maps a refused connection to 503', async () => {
      const closed = await startTestSandbox();
      await closed.close();
      const adapter = new ChangellyAdapter(testProviderConfig(closed.url));

      const error = await providerError(adapter.getTransactions({ ids: ['x'] }));

      expect(error).toMatchObject({ code: ErrorCode.UpstreamUnavailable, status: 503 });
    });

    it('serves the armed fault count times, then answers normally', async () => {
      await sandbox.control.setFault({ method: 'getTransactions', mode: 'http_500', count: 2 });
      const tx = await sut.createTransaction({
        from: 'btc',
        to: 'eth',
        amountFrom: '0.05',
        address: ethAddress(),
      });

      await expect(sut.getTransactions({ ids: [tx.id] })).rejects.toBeInstanceOf(ProviderError);
      await expect(sut.getTransactions({ ids: [tx.id] })).rejects.toBeInstanceOf(ProviderError);
      await expect(sut.getTransactions({ ids: [tx.id] })).resolves.toEqual([
        expect.objectContaining({ id: tx.id, status: 'waiting' }),
      ]);
    });
  });

  describe('authentication', () => {
    it('is refused with a key the sandbox does not know', async () => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const stranger = new ChangellyAdapter({ ...testProviderConfig(sandbox.url), privateKey });

      const error = await providerError(stranger.getCurrencies());

      expect(error).toMatchObject({
        code: ErrorCode.UpstreamNotConfigured,
        status: 503,
        upstreamCode: -32600,
      });
    });

    it('refuses a body that differs from the signed one', async () => {
      const signed = JSON.stringify({
        jsonrpc: '2.0',
        id: '1',
        method: 'getStatus',
        params: { id: 'a' },
      });
      const tampered = signed.replace('"a"', '"b"');
      const before = (await sandbox.control.stats()).rejected.unauthorized;

      const response = await fetch(sandbox.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...providerAuthHeaders(providerKeyPair().privateKey, signed),
        },
        body: tampered,
      });

      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Unauthorized' },
      });
      expect((await sandbox.control.stats()).rejected.unauthorized).toBe(before + 1);
    });

    it('accepts the same body signed as sent, byte for byte', async () => {
      const body = ' {"jsonrpc":"2.0", "id":"1","method":"getStatus","params":{"id":"a"}}';

      const response = await fetch(sandbox.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...providerAuthHeaders(providerKeyPair().privateKey, body),
        },
        body,
      });

      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ id: '1', error: { code: -32602 } });
    });
  });

  describe(ProviderModule.name, () => {
    async function replica() {
      const moduleRef = await Test.createTestingModule({
        imports: [
          CoreModule.forRoot({
            database: { url: testDatabaseUrl(), timeoutMs: 5000 },
            redis: { url: testRedisUrl(), keyPrefix: `${testRedisPrefix()}provider-module:` },
            credentials: { encryptionKey: randomBytes(32) },
            providers: {
              providers: ['changelly'],
              provider: testProviderConfig(sandbox.url),
              testProvider: null,
              changenow: null,
              testChangenow: null,
            },
            upstream: { priority: 'partner' },
          }),
          ProviderModule,
        ],
      }).compile();
      // The store refuses commands until connected (no offline queue); wait so the test measures sharing.
      const store = moduleRef.get<KeyValueStore>(KEY_VALUE_STORE);
      for (let i = 0; i < 50 && (await store.health(200)) !== 'up'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return { moduleRef, fleet: moduleRef.get<ProviderFleet>(PROVIDER_FLEET) };
    }

    it('provides the adapter, whose caches replicas share through Redis', async () => {
      const first = await replica();
      const second = await replica();
      try {
        await sandbox.control.reset();

        await first.fleet.get('changelly', true).getCurrencies();
        await second.fleet.get('changelly', true).getCurrencies();
        await first.fleet.get('changelly', true).getPairParams('eth', 'btc');
        await second.fleet.get('changelly', true).getPairParams('eth', 'btc');

        expect(first.fleet.get('changelly', true)).toBeInstanceOf(ChangellyAdapter);
        expect(first.fleet.find('changelly', false)).toBeUndefined();
        expect((await sandbox.control.stats()).calls).toEqual({
          getCurrenciesFull: 1,
          getPairsParams: 1,
        });
      } finally {
        await first.moduleRef.close();
        await second.moduleRef.close();
      }
    });
  });
});
