import { randomBytes } from 'node:crypto';
import { Decimal } from 'decimal.js';
import { DECIMAL_STRING } from '#app/domain';
import { generateAddress, validateAddress, type Chain } from '#app/chains';
import type { ProvidersConfig } from '#app/config';
import { ErrorCode } from '#app/errors';
import { MemoryStore } from '#app/redis';
import {
  CHANGENOW_API_KEY_HEADER,
  ChangellyAdapter,
  ChangeNowAdapter,
  createAdapters,
  ProviderError,
  type ProviderTransaction,
  type UpstreamCallEvent,
} from '#app/provider';
import type { UpstreamGates } from '#app/rate-limit';
import {
  startTestSandbox,
  TEST_CHANGENOW_API_KEY,
  testChangeNowConfig,
  testProviderConfig,
  type TestSandbox,
} from './support/sandbox.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const address = (chain: Chain) => generateAddress(chain, (n) => randomBytes(n));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

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

/** What the sandbox's ChangeNOW answers on the wire, read with the key. */
async function wire(sandbox: TestSandbox, path: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${sandbox.changenowUrl}/v2/${path}`, {
    headers: { [CHANGENOW_API_KEY_HEADER]: TEST_CHANGENOW_API_KEY },
  });
  return (await response.json()) as Record<string, unknown>;
}

async function until(
  read: () => Promise<ProviderTransaction>,
  done: (tx: ProviderTransaction) => boolean,
  timeoutMs = 8000,
): Promise<{ tx: ProviderTransaction; seen: string[] }> {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const tx = await read();
    if (seen[seen.length - 1] !== tx.status) {
      seen.push(tx.status);
    }
    if (done(tx) || Date.now() > deadline) {
      return { tx, seen };
    }
    await sleep(40);
  }
}

describe(ChangeNowAdapter.name, () => {
  let sandbox: TestSandbox;
  let sut: ChangeNowAdapter;
  let events: UpstreamCallEvent[];

  const one = async (id: string): Promise<ProviderTransaction> => {
    const [tx] = await sut.getTransactions({ ids: [id] });
    if (!tx) {
      throw new Error(`no transaction ${id}`);
    }
    return tx;
  };

  beforeAll(async () => {
    // Prices hold still for the whole suite, so two reads of one moment agree.
    sandbox = await startTestSandbox({ stepMs: 150 }, { priceStepMs: 3_600_000 });
  });

  beforeEach(() => {
    events = [];
    sut = new ChangeNowAdapter(testChangeNowConfig(sandbox.baseUrl), {
      cache: new MemoryStore(),
      onCall: (event) => events.push(event),
    });
  });

  afterEach(async () => {
    await sandbox.control.clearFaults();
  });

  afterAll(async () => {
    await sandbox.close();
  });

  describe('catalogue', () => {
    it('maps ticker and network to canonical tickers, with chain and decimals, and caches it', async () => {
      const before = (await sandbox.control.stats()).providers.changenow.calls.currencies ?? 0;

      const currencies = await sut.getCurrencies();
      await sut.getCurrencies();

      const byTicker = new Map(currencies.map((c) => [c.ticker, c]));
      expect(byTicker.get('usdtrx')).toMatchObject({ blockchain: 'tron', blockchainPrecision: 6 });
      expect(byTicker.get('usdt20')).toMatchObject({
        blockchain: 'ethereum',
        blockchainPrecision: 6,
      });
      expect(byTicker.get('bnbbsc')).toMatchObject({ blockchain: 'binance_smart_chain' });
      expect(byTicker.get('pol')).toMatchObject({ blockchain: 'polygon', payinConfirmations: 128 });
      expect(byTicker.get('dai')).toMatchObject({
        fullName: 'Dai (ERC20)',
        blockchain: 'ethereum',
        blockchainPrecision: 18,
        extraIdName: null,
        fixRateEnabled: true,
      });
      expect(byTicker.get('link')).toMatchObject({ blockchain: 'ethereum', extraIdName: null });
      expect(byTicker.get('xrp')?.extraIdName).not.toBeNull();
      expect(byTicker.get('dash')).toMatchObject({ enabledFrom: true, enabledTo: false });
      // ChangeNOW lacks bch; etc is switched off and `active=true` leaves it out.
      expect(byTicker.has('bch')).toBe(false);
      expect(byTicker.has('etc')).toBe(false);
      expect(currencies.every((c) => c.enabled)).toBe(true);
      expect((await sandbox.control.stats()).providers.changenow.calls.currencies).toBe(before + 1);
    });

    it("reads both flows' ranges at 0.8 × Changelly's minimum and 1.25 × its maximum", async () => {
      const changelly = new ChangellyAdapter(testProviderConfig(sandbox.url));

      const mine = await sut.getPairParams('btc', 'eth');
      const theirs = await changelly.getPairParams('btc', 'eth');
      await sut.getPairParams('btc', 'eth');

      const up = (value: string, factor: string) =>
        new Decimal(value).mul(factor).toDecimalPlaces(8, Decimal.ROUND_UP).toFixed();
      const down = (value: string, factor: string) =>
        new Decimal(value).mul(factor).toDecimalPlaces(8, Decimal.ROUND_DOWN).toFixed();
      expect(mine).toEqual({
        from: 'btc',
        to: 'eth',
        minAmountFloat: up(theirs.minAmountFloat, '0.8'),
        maxAmountFloat: down(theirs.maxAmountFloat, '1.25'),
        minAmountFixed: up(theirs.minAmountFixed, '0.8'),
        maxAmountFixed: down(theirs.maxAmountFixed, '1.25'),
      });
      expect(events.map((e) => [e.provider, e.method])).toEqual([
        ['changenow', 'range'],
        ['changenow', 'range'],
      ]);
    });
  });

  describe('quotes', () => {
    it("quotes float as the port counts: gross amountTo, the payout's network fee, no fee", async () => {
      const params = await sut.getPairParams('btc', 'usdtrx');
      const quote = await sut.getFloatQuote({ from: 'btc', to: 'usdtrx', amountFrom: '0.05' });
      const estimate = await wire(
        sandbox,
        'exchange/estimated-amount?fromCurrency=btc&fromNetwork=btc&toCurrency=usdt&toNetwork=trx&fromAmount=0.05&flow=standard',
      );

      expect(quote).toEqual({
        from: 'btc',
        to: 'usdtrx',
        amountFrom: '0.05',
        amountTo: expect.stringMatching(DECIMAL_STRING),
        networkFee: '1.5',
        rate: new Decimal(quote.amountTo).div('0.05').toSignificantDigits(12).toFixed(),
        fee: null,
        min: params.minAmountFloat,
        max: params.maxAmountFloat,
      });
      expect(new Decimal(quote.amountTo).minus(quote.networkFee).toFixed()).toBe(
        String(estimate.toAmount),
      );
    });

    it('reads amounts exactly, beyond what a double holds', async () => {
      const amountFrom = '1.234567890123456789';
      const quote = await sut.getFloatQuote({ from: 'eth', to: 'dai', amountFrom });
      const response = await fetch(
        `${sandbox.changenowUrl}/v2/exchange/estimated-amount?fromCurrency=eth&fromNetwork=eth&toCurrency=dai&toNetwork=eth&fromAmount=${amountFrom}`,
        { headers: { [CHANGENOW_API_KEY_HEADER]: TEST_CHANGENOW_API_KEY } },
      );
      // The number as written on the wire, which a double could not hold.
      const written = /"toAmount":([0-9.]+)/.exec(await response.text())?.[1];

      // More significant digits than a double keeps (17).
      expect(written?.replace('.', '').replace(/^0+/, '').length).toBeGreaterThan(17);
      expect(new Decimal(quote.amountTo).minus(quote.networkFee).toFixed()).toBe(written);
      expect(quote.amountFrom).toBe(amountFrom);
    });

    it('locks a fixed rate with an ISO expiry, good for one exchange', async () => {
      const quote = await sut.getFixedQuote({ from: 'eth', to: 'btc', amountFrom: '1' });
      const request = {
        from: 'eth',
        to: 'btc',
        amountFrom: '1',
        rateId: quote.rateId,
        address: address('bitcoin'),
        refundAddress: address('ethereum'),
      };

      const created = await sut.createFixedTransaction(request);
      const reused = await providerError(sut.createFixedTransaction(request));

      expect(quote.expiresAt).toMatch(ISO);
      expect(Date.parse(quote.expiresAt) - Date.now()).toBeGreaterThan(50_000);
      expect(created).toMatchObject({ status: 'waiting', from: 'eth', to: 'btc' });
      expect(created.payTill).toMatch(ISO);
      expect(created.amountExpectedTo).toBe(
        new Decimal(quote.amountTo).minus(quote.networkFee).toFixed(),
      );
      expect(reused).toMatchObject({
        code: ErrorCode.RateExpired,
        status: 409,
        param: 'rateId',
        upstreamError: 'rate_id_not_found_or_expired',
        delivery: 'refused',
      });
    });

    it('prices each provider with its own spread', async () => {
      await sandbox.control.setSpread('changenow', 'ltc', 'trx', 0);
      const cheap = await sut.getFloatQuote({ from: 'ltc', to: 'trx', amountFrom: '2' });
      await sandbox.control.setSpread('changenow', 'ltc', 'trx', 200);
      const dear = await sut.getFloatQuote({ from: 'ltc', to: 'trx', amountFrom: '2' });
      await sandbox.control.restoreSpreads();

      const ratio = new Decimal(dear.amountTo).div(cheap.amountTo);
      expect(ratio.toDecimalPlaces(3).toFixed()).toBe('0.98');
    });
  });

  describe('transactions', () => {
    it('creates a float exchange whose payload brings our note back on every read', async () => {
      const payout = address('tron');
      const created = await sut.createTransaction({
        from: 'btc',
        to: 'usdtrx',
        amountFrom: '0.05',
        address: payout,
        userMetadata: 'attempt:0123456789abcdef01234567',
      });
      const [listed] = await sut.getTransactions({ payoutAddress: payout });

      expect(created).toMatchObject({
        status: 'waiting',
        from: 'btc',
        to: 'usdtrx',
        payoutAddress: payout,
        refundAddress: null,
        userMetadata: 'attempt:0123456789abcdef01234567',
        amountExpectedFrom: '0.05',
        networkFee: null,
        payTill: null,
        amountActualFrom: null,
      });
      expect(created.id).toMatch(/^[0-9a-f]{14}$/);
      expect(validateAddress('bitcoin', created.payinAddress)).toEqual({ valid: true });
      expect(Math.abs(Date.parse(created.createdAt) - Date.now())).toBeLessThan(5000);
      expect((await one(created.id)).userMetadata).toBe('attempt:0123456789abcdef01234567');
      expect(listed).toMatchObject({ id: created.id, userMetadata: created.userMetadata });
    });

    it('reads many ids one by-id call each, an unknown id absent', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) {
        const tx = await sut.createTransaction({
          from: 'ltc',
          to: 'eth',
          amountFrom: '1',
          address: address('ethereum'),
        });
        ids.push(tx.id);
      }
      const before = (await sandbox.control.stats()).providers.changenow.calls['by-id'] ?? 0;

      const found = await sut.getTransactions({ ids: [...ids, 'ffffffffffffff'] });

      expect(found.map((tx) => tx.id)).toEqual(ids);
      expect((await sandbox.control.stats()).providers.changenow.calls['by-id']).toBe(before + 8);
    });

    it('lists by payout address and status, newest first, the page asked exactly', async () => {
      const mine = address('ethereum');
      const since = new Date().toISOString();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        ids.unshift(
          (
            await sut.createTransaction({
              from: 'ltc',
              to: 'eth',
              amountFrom: '1',
              address: mine,
            })
          ).id,
        );
        await sut.createTransaction({
          from: 'ltc',
          to: 'eth',
          amountFrom: '1',
          address: address('ethereum'),
        });
      }
      await sandbox.control.forceStatus(ids[1], 'hold');

      const page = await sut.getTransactions({ payoutAddress: mine, since, limit: 2, offset: 1 });
      const tail = await sut.getTransactions({ payoutAddress: mine, since, limit: 10, offset: 4 });
      const held = await sut.getTransactions({ payoutAddress: mine, statuses: ['hold'] });

      expect(page.map((tx) => tx.id)).toEqual([ids[1], ids[2]]);
      expect(tail.map((tx) => tx.id)).toEqual([ids[4]]);
      expect(held.map((tx) => [tx.id, tx.status])).toEqual([[ids[1], 'hold']]);
    });

    it('walks past full pages that hold no match', async () => {
      const mine = address('solana');
      const since = new Date().toISOString();
      const older = await sut.createTransaction({
        from: 'btc',
        to: 'sol',
        amountFrom: '0.01',
        address: mine,
      });
      for (let i = 0; i < 100; i++) {
        await sut.createTransaction({
          from: 'btc',
          to: 'sol',
          amountFrom: '0.01',
          address: address('solana'),
        });
      }
      const before = (await sandbox.control.stats()).providers.changenow.calls.exchanges ?? 0;

      const found = await sut.getTransactions({ payoutAddress: mine, since, limit: 100 });

      expect(found.map((tx) => tx.id)).toEqual([older.id]);
      expect((await sandbox.control.stats()).providers.changenow.calls.exchanges).toBe(before + 2);
    });

    it('validates addresses on the currency network', async () => {
      await expect(
        sut.validateAddress('usdtrx', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'),
      ).resolves.toEqual({ result: true });
      const bad = await sut.validateAddress('eth', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD');
      expect(bad.result).toBe(false);
      expect(bad.message).toMatch(/checksum/);
    });
  });

  describe('statuses', () => {
    it('walks a deposited float exchange to finished, with hashes, amounts and times', async () => {
      const created = await sut.createTransaction({
        from: 'btc',
        to: 'eth',
        amountFrom: '0.05',
        address: address('ethereum'),
      });
      await sandbox.control.deposit(created.id);

      const { tx, seen } = await until(
        () => one(created.id),
        (t) => t.status === 'finished',
      );

      expect(seen[0]).toBe('confirming');
      expect(seen).toContain('finished');
      expect(tx).toMatchObject({
        amountActualFrom: '0.05',
        amountActualTo: created.amountExpectedTo,
        payinHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        payoutHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        moneyReceivedAt: expect.stringMatching(ISO),
        moneySentAt: expect.stringMatching(ISO),
      });
    });

    it('reads verifying as hold', async () => {
      const created = await sut.createTransaction({
        from: 'btc',
        to: 'eth',
        amountFrom: '0.05',
        address: address('ethereum'),
      });
      await sandbox.control.forceStatus(created.id, 'hold');

      expect((await wire(sandbox, `exchange/by-id?id=${created.id}`)).status).toBe('verifying');
      expect((await one(created.id)).status).toBe('hold');
    });

    it('reads a late fixed exchange as expired', async () => {
      const quote = await sut.getFixedQuote({ from: 'eth', to: 'btc', amountFrom: '1' });
      const created = await sut.createFixedTransaction({
        from: 'eth',
        to: 'btc',
        amountFrom: '1',
        rateId: quote.rateId,
        address: address('bitcoin'),
        refundAddress: address('ethereum'),
      });
      await sandbox.control.deposit(created.id, { late: true });

      expect((await wire(sandbox, `exchange/by-id?id=${created.id}`)).status).toBe('expired');
      expect((await one(created.id)).status).toBe('expired');
    });

    it('reads a float exchange whose window passed without a deposit as overdue', async () => {
      const short = await startTestSandbox({}, { floatWindowMs: 200 });
      try {
        const adapter = new ChangeNowAdapter(testChangeNowConfig(short.baseUrl));
        const created = await adapter.createTransaction({
          from: 'btc',
          to: 'eth',
          amountFrom: '0.05',
          address: address('ethereum'),
        });
        await sleep(400);

        const [tx] = await adapter.getTransactions({ ids: [created.id] });

        expect((await wire(short, `exchange/by-id?id=${created.id}`)).status).toBe('expired');
        expect(tx?.status).toBe('overdue');
      } finally {
        await short.close();
      }
    });
  });

  describe('refusals', () => {
    it("names the range's minimum when an amount is below it", async () => {
      const params = await sut.getPairParams('btc', 'eth');

      const quote = await providerError(
        sut.getFloatQuote({ from: 'btc', to: 'eth', amountFrom: '0.00000001' }),
      );
      const create = await providerError(
        sut.createTransaction({
          from: 'btc',
          to: 'eth',
          amountFrom: '0.00000001',
          address: address('ethereum'),
        }),
      );

      for (const error of [quote, create]) {
        expect(error).toMatchObject({
          code: ErrorCode.AmountBelowMin,
          status: 400,
          param: 'amountFrom',
          bound: params.minAmountFloat,
          upstreamError: 'out_of_range',
          delivery: 'refused',
        });
        expect(error.message).toContain(params.minAmountFloat);
      }
    });

    it("names the fixed range's maximum when an amount is above it", async () => {
      const params = await sut.getPairParams('btc', 'eth');

      const error = await providerError(
        sut.getFixedQuote({ from: 'btc', to: 'eth', amountFrom: '1000' }),
      );

      expect(error).toMatchObject({
        code: ErrorCode.AmountAboveMax,
        bound: params.maxAmountFixed,
        delivery: 'refused',
      });
    });

    it('answers pair_unsupported for an inactive pair, and for a currency ChangeNOW lacks', async () => {
      const inactive = await providerError(
        sut.getFloatQuote({ from: 'btc', to: 'dash', amountFrom: '0.1' }),
      );
      const lacking = await providerError(sut.getPairParams('bch', 'eth'));
      const unknown = await providerError(sut.getPairParams('zzz', 'eth'));

      expect(inactive).toMatchObject({
        code: ErrorCode.PairUnsupported,
        param: 'pair',
        upstreamError: 'pair_is_inactive',
        delivery: 'refused',
      });
      expect(lacking).toMatchObject({ code: ErrorCode.PairUnsupported, delivery: 'refused' });
      expect(unknown).toMatchObject({ code: ErrorCode.PairUnsupported, delivery: 'not_sent' });
    });

    it('answers a refused address as the service answers any provider-refused address', async () => {
      const payout = await providerError(
        sut.createTransaction({
          from: 'btc',
          to: 'eth',
          amountFrom: '0.05',
          address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD',
        }),
      );
      const refund = await providerError(
        sut.createTransaction({
          from: 'btc',
          to: 'eth',
          amountFrom: '0.05',
          address: address('ethereum'),
          refundAddress: 'bc1qnotanaddress',
        }),
      );

      expect(payout).toMatchObject({
        code: ErrorCode.InvalidRequest,
        status: 400,
        upstreamCode: -32602,
        param: null,
        message: 'Invalid address',
        upstreamError: 'not_valid_address',
        delivery: 'refused',
      });
      expect(refund).toMatchObject({ message: 'Invalid refund address', upstreamCode: -32602 });
    });

    it('is refused, loudly, with a key the sandbox does not know', async () => {
      const stranger = new ChangeNowAdapter({
        ...testChangeNowConfig(sandbox.baseUrl),
        apiKey: 'someone-elses-api-key-0000',
      });
      const before = (await sandbox.control.stats()).providers.changenow.rejected.unauthorized;

      const error = await providerError(stranger.getCurrencies());

      expect(error).toMatchObject({
        code: ErrorCode.UpstreamNotConfigured,
        status: 503,
        delivery: 'refused',
      });
      expect((await sandbox.control.stats()).providers.changenow.rejected.unauthorized).toBe(
        before + 1,
      );
    });

    it('maps a refused connection to 503, never sent', async () => {
      const closed = await startTestSandbox();
      await closed.close();
      const adapter = new ChangeNowAdapter(testChangeNowConfig(closed.baseUrl));

      const error = await providerError(adapter.getTransactions({ ids: ['x'] }));

      expect(error).toMatchObject({
        code: ErrorCode.UpstreamUnavailable,
        status: 503,
        delivery: 'not_sent',
      });
    });
  });

  describe('faults', () => {
    const quote = () => sut.getFloatQuote({ from: 'btc', to: 'eth', amountFrom: '0.1' });

    /** The pair's range read before the fault is armed, so the fault hits the estimate. */
    const readRange = () => sut.getPairParams('btc', 'eth');

    it.each([
      ['non_json', {}, { code: ErrorCode.UpstreamBadResponse, status: 502, delivery: 'unknown' }],
      ['empty_result', {}, { code: ErrorCode.UpstreamEmptyQuote, status: 502 }],
      [
        'rpc_error',
        {},
        {
          code: ErrorCode.InvalidRequest,
          status: 400,
          upstreamError: 'out_of_range',
          delivery: 'refused',
        },
      ],
      [
        'rpc_error',
        { code: 'pair_is_inactive' },
        { code: ErrorCode.PairUnsupported, status: 400, delivery: 'refused' },
      ],
      [
        'rpc_error',
        { code: 'rate_id_not_found_or_expired' },
        { code: ErrorCode.RateExpired, status: 409, delivery: 'refused' },
      ],
      [
        'rpc_error',
        { code: 'not_valid_address' },
        { code: ErrorCode.InvalidRequest, upstreamCode: -32602, delivery: 'refused' },
      ],
      [
        'rate_limit',
        {},
        {
          code: ErrorCode.UpstreamRateLimited,
          status: 429,
          retryAfterMs: 1000,
          delivery: 'refused',
        },
      ],
      ['http_500', {}, { code: ErrorCode.UpstreamError, status: 502, delivery: 'unknown' }],
    ] as const)('maps %s %j on a quote', async (mode, extra, expected) => {
      await readRange();
      await sandbox.control.setFault({
        provider: 'changenow',
        method: 'estimated-amount',
        mode,
        ...extra,
      });

      const error = await providerError(quote());

      expect(error).toMatchObject({ ...expected, method: 'estimated-amount' });
    });

    it('maps an empty by-id answer to upstream_bad_response', async () => {
      await sandbox.control.setFault({
        provider: 'changenow',
        method: 'by-id',
        mode: 'empty_result',
      });

      const error = await providerError(sut.getTransactions({ ids: ['x'] }));

      expect(error).toMatchObject({ code: ErrorCode.UpstreamBadResponse, delivery: 'unknown' });
    });

    it('times out after its own timeout, and the exchange it created is found by its payload', async () => {
      const payout = address('ethereum');
      await sandbox.control.setFault({
        provider: 'changenow',
        method: 'exchange',
        mode: 'timeout',
        delayMs: 10_000,
      });
      const started = Date.now();

      const error = await providerError(
        sut.createTransaction({
          from: 'btc',
          to: 'eth',
          amountFrom: '0.05',
          address: payout,
          userMetadata: 'attempt:lost',
        }),
      );
      const found = await sut.getTransactions({ payoutAddress: payout });

      expect(Date.now() - started).toBeLessThan(5000);
      expect(error).toMatchObject({
        code: ErrorCode.UpstreamUnavailable,
        status: 503,
        delivery: 'unknown',
        method: 'exchange',
      });
      expect(found.map((tx) => tx.userMetadata)).toEqual(['attempt:lost']);
    });

    it("spoils only the provider it names: Changelly's calls go on", async () => {
      await sandbox.control.setFault({ provider: 'changenow', method: '*', mode: 'http_500' });
      const changelly = new ChangellyAdapter(testProviderConfig(sandbox.url));

      await expect(changelly.getCurrencies()).resolves.not.toHaveLength(0);
      await expect(sut.getCurrencies()).rejects.toBeInstanceOf(ProviderError);
    });
  });

  describe(createAdapters.name, () => {
    const gates: UpstreamGates = { forBudget: () => ({ acquire: () => Promise.resolve() }) };
    const config: ProvidersConfig = {
      providers: ['changenow'],
      provider: null,
      testProvider: null,
      changenow: null,
      testChangenow: null,
    };

    it("builds ChangeNOW's live and test adapters from the settings", async () => {
      const providers = createAdapters(
        'changenow',
        {
          ...config,
          changenow: testChangeNowConfig(sandbox.baseUrl),
          testChangenow: testChangeNowConfig(sandbox.baseUrl),
        },
        { cache: new MemoryStore(), gates, onCall: () => undefined },
      );

      expect(providers.live).toBeInstanceOf(ChangeNowAdapter);
      expect(providers.live.name).toBe('changenow');
      expect(providers.test?.name).toBe('changenow');
      await expect(providers.test?.getCurrencies()).resolves.not.toHaveLength(0);
    });

    it('refuses to build a provider the settings do not configure', () => {
      expect(() =>
        createAdapters('changenow', config, {
          cache: new MemoryStore(),
          gates,
          onCall: () => undefined,
        }),
      ).toThrow(/changenow/);
    });
  });
});
