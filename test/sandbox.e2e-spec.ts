import { randomBytes } from 'node:crypto';
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { DECIMAL_STRING, type SwapMode } from '#app/domain';
import { generateAddress, isChain, validateAddress, type Chain } from '#app/chains';
import { ErrorCode } from '#app/errors';
import { MemoryStore } from '#app/redis';
import {
  CHANGENOW_API_KEY_HEADER,
  ChangellyAdapter,
  ProviderError,
  providerAuthHeaders,
  type ProviderCurrency,
  type ProviderTransaction,
} from '#app/provider';
import { providerKeyPair } from './support/keys.js';
import {
  startTestSandbox,
  TEST_CHANGENOW_API_KEY,
  testProviderConfig,
  type TestSandbox,
} from './support/sandbox.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function address(chain: string): string {
  if (!isChain(chain)) {
    throw new Error(`no generator for ${chain}`);
  }
  return generateAddress(chain, (n) => randomBytes(n));
}

function decimals(value: string): number {
  return new Decimal(value).decimalPlaces();
}

/**
 * `getStatus` over the wire: the sandbox serves it (docs/decisions.md, "The provider's wire
 * protocol") though the adapter never asks.
 */
async function statusOf(sandbox: TestSandbox, id: string): Promise<unknown> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getStatus', params: { id } });
  const response = await fetch(sandbox.url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...providerAuthHeaders(providerKeyPair().privateKey, body),
    },
    body,
  });
  return ((await response.json()) as { result?: unknown }).result;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls until `done` holds, recording every status seen on the way. */
async function watch(
  sut: ChangellyAdapter,
  id: string,
  done: (tx: ProviderTransaction) => boolean,
  timeoutMs = 20_000,
): Promise<{ tx: ProviderTransaction; seen: string[] }> {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [tx] = await sut.getTransactions({ ids: [id] });
    if (!tx) {
      throw new Error(`transaction ${id} not found`);
    }
    if (seen[seen.length - 1] !== tx.status) {
      seen.push(tx.status);
    }
    if (done(tx) || Date.now() > deadline) {
      return { tx, seen };
    }
    await sleep(40);
  }
}

describe('SandboxProvider', () => {
  let sandbox: TestSandbox;
  let sut: ChangellyAdapter;
  let currencies: ProviderCurrency[];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ stepMs: 150 });
    sut = new ChangellyAdapter(testProviderConfig(sandbox.url), { cache: new MemoryStore() });
    currencies = await sut.getCurrencies();
  });

  afterAll(async () => {
    await sandbox.close();
  });

  const currency = (ticker: string): ProviderCurrency => {
    const found = currencies.find((c) => c.ticker === ticker);
    if (!found) {
      throw new Error(`no currency ${ticker}`);
    }
    return found;
  };

  describe('catalogue', () => {
    it('lists chains, memo currencies, a disabled and a source-only currency', () => {
      const tickers = currencies.map((c) => c.ticker);
      expect(tickers).toEqual(
        expect.arrayContaining([
          'btc',
          'eth',
          'ltc',
          'bch',
          'doge',
          'trx',
          'sol',
          'ada',
          'usdtrx',
          'usdt20',
          'usdc',
          'bnbbsc',
        ]),
      );
      expect(currency('xrp').extraIdName).toEqual(expect.any(String));
      expect(currency('xlm').extraIdName).toEqual(expect.any(String));
      expect(tickers).not.toContain('dai');
      expect(tickers).not.toContain('link');
      expect(currency('etc').enabled).toBe(false);
      expect(currency('dash')).toMatchObject({
        enabled: true,
        enabledFrom: true,
        enabledTo: false,
      });
      for (const c of currencies) {
        expect(isChain(c.blockchain)).toBe(true);
      }
    });

    it('refuses a disabled currency and a source-only currency as target', async () => {
      await expect(
        sut.getFloatQuote({ from: 'etc', to: 'btc', amountFrom: '10' }),
      ).rejects.toMatchObject({
        code: ErrorCode.InvalidRequest,
        param: 'pair',
      });
      await expect(
        sut.getFloatQuote({ from: 'btc', to: 'dash', amountFrom: '0.1' }),
      ).rejects.toMatchObject({
        param: 'pair',
      });
      await expect(
        sut.getFloatQuote({ from: 'dash', to: 'btc', amountFrom: '10' }),
      ).resolves.toMatchObject({
        from: 'dash',
      });
    });
  });

  describe('quotes (properties)', () => {
    const tradable = () =>
      currencies.filter((c) => c.enabled && c.extraIdName === null).map((c) => c.ticker);

    /** A pair usable in `mode` and an amount inside its bounds, at the payin's precision. */
    const quoteCase = (mode: SwapMode) =>
      fc
        .record({
          from: fc.constantFrom(...tradable()),
          to: fc.constantFrom(...tradable()),
          fraction: fc.integer({ min: 0, max: 1_000_000 }),
        })
        .filter(({ from, to }) => {
          const f = currency(from);
          const t = currency(to);
          return (
            from !== to &&
            f.enabledFrom &&
            t.enabledTo &&
            (mode === 'float' || (f.fixRateEnabled && t.fixRateEnabled))
          );
        });

    async function amountInside(
      from: string,
      to: string,
      fraction: number,
      mode: SwapMode,
    ): Promise<string> {
      const pair = await sut.getPairParams(from, to);
      const min = new Decimal(mode === 'float' ? pair.minAmountFloat : pair.minAmountFixed);
      const max = new Decimal(mode === 'float' ? pair.maxAmountFloat : pair.maxAmountFixed);
      // Stay in the lower part of the range so a float re-quote cannot cross the maximum.
      const span = max.minus(min).div(100);
      const scale = Math.max(min.decimalPlaces(), max.decimalPlaces());
      return min
        .plus(span.mul(fraction).div(1_000_000))
        .toDecimalPlaces(scale, Decimal.ROUND_DOWN)
        .toFixed();
    }

    it('pair params: decimal strings, min ≤ max, fixed bounds inside float bounds', async () => {
      await fc.assert(
        fc.asyncProperty(quoteCase('fixed'), async ({ from, to }) => {
          const pair = await sut.getPairParams(from, to);
          const [minFloat, maxFloat, minFixed, maxFixed] = [
            pair.minAmountFloat,
            pair.maxAmountFloat,
            pair.minAmountFixed,
            pair.maxAmountFixed,
          ].map((v) => {
            expect(v).toMatch(DECIMAL_STRING);
            return new Decimal(v);
          }) as [Decimal, Decimal, Decimal, Decimal];
          expect(minFloat.lte(maxFloat)).toBe(true);
          expect(minFixed.lte(maxFixed)).toBe(true);
          expect(minFixed.gte(minFloat)).toBe(true);
          expect(maxFixed.lte(maxFloat)).toBe(true);
        }),
        { numRuns: 40, seed: 42 },
      );
    });

    it('float: amounts within payout precision; amountTo − networkFee is the created swap payout', async () => {
      await fc.assert(
        fc.asyncProperty(quoteCase('float'), async ({ from, to, fraction }) => {
          const amountFrom = await amountInside(from, to, fraction, 'float');
          const quote = await sut.getFloatQuote({ from, to, amountFrom });
          const precision = currency(to).blockchainPrecision;
          for (const value of [quote.amountTo, quote.networkFee, quote.fee ?? '']) {
            expect(value).toMatch(DECIMAL_STRING);
            expect(decimals(value)).toBeLessThanOrEqual(precision);
          }
          expect(new Decimal(quote.min).lte(quote.max)).toBe(true);
          const created = await sut.createTransaction({
            from,
            to,
            amountFrom,
            address: address(currency(to).blockchain),
          });
          expect(created.amountExpectedTo).toBe(
            new Decimal(quote.amountTo).minus(quote.networkFee).toFixed(),
          );
          expect(validateAddress(currency(from).blockchain as Chain, created.payinAddress)).toEqual(
            { valid: true },
          );
        }),
        { numRuns: 30, seed: 7 },
      );
    });

    it('fixed: amounts within payout precision; amountTo − networkFee is the created swap payout', async () => {
      await fc.assert(
        fc.asyncProperty(quoteCase('fixed'), async ({ from, to, fraction }) => {
          const amountFrom = await amountInside(from, to, fraction, 'fixed');
          const quote = await sut.getFixedQuote({ from, to, amountFrom });
          const precision = currency(to).blockchainPrecision;
          for (const value of [quote.amountTo, quote.networkFee]) {
            expect(value).toMatch(DECIMAL_STRING);
            expect(decimals(value)).toBeLessThanOrEqual(precision);
          }
          const created = await sut.createFixedTransaction({
            from,
            to,
            amountFrom,
            rateId: quote.rateId,
            address: address(currency(to).blockchain),
            refundAddress: address(currency(from).blockchain),
          });
          expect(created.amountExpectedTo).toBe(
            new Decimal(quote.amountTo).minus(quote.networkFee).toFixed(),
          );
          expect(created.payTill).toMatch(ISO);
        }),
        { numRuns: 30, seed: 11 },
      );
    });
  });

  describe('lifecycle', () => {
    it('walks a deposited float swap to finished, filling hashes, amounts and timestamps', async () => {
      const created = await sut.createTransaction({
        from: 'btc',
        to: 'eth',
        amountFrom: '0.05',
        address: address('ethereum'),
      });
      expect(created.status).toBe('waiting');

      await sandbox.control.deposit(created.id);
      const { tx, seen } = await watch(sut, created.id, (t) => t.status === 'finished');

      // Polling may skip steps on a busy machine (one read can outlast a 150 ms step): the order
      // and the end are fixed.
      const steps = ['confirming', 'exchanging', 'sending', 'finished'];
      expect(seen.every((s) => steps.includes(s))).toBe(true);
      expect(seen[seen.length - 1]).toBe('finished');
      expect(seen.map((s) => steps.indexOf(s))).toEqual(
        [...seen.map((s) => steps.indexOf(s))].sort(),
      );
      expect(tx).toMatchObject({
        status: 'finished',
        amountActualFrom: '0.05',
        amountActualTo: created.amountExpectedTo,
        actualNetworkFee: created.networkFee,
        payinHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        payoutHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        moneyReceivedAt: expect.stringMatching(ISO),
        moneySentAt: expect.stringMatching(ISO),
      });
      expect(Date.parse(tx.moneySentAt ?? '')).toBeGreaterThanOrEqual(
        Date.parse(tx.moneyReceivedAt ?? '') - 1000,
      );
    });

    it('expires a fixed swap on a short deposit', async () => {
      const quote = await sut.getFixedQuote({ from: 'eth', to: 'btc', amountFrom: '1' });
      const created = await sut.createFixedTransaction({
        from: 'eth',
        to: 'btc',
        amountFrom: '1',
        rateId: quote.rateId,
        address: address('bitcoin'),
        refundAddress: address('ethereum'),
      });

      await sandbox.control.deposit(created.id, { amount: '0.9' });
      await sleep(400);

      const [tx] = await sut.getTransactions({ ids: [created.id] });
      expect(tx).toMatchObject({ status: 'expired', amountActualFrom: '0.9', payoutHash: null });
    });

    it('expires a fixed swap on a late deposit', async () => {
      const quote = await sut.getFixedQuote({ from: 'eth', to: 'btc', amountFrom: '1' });
      const created = await sut.createFixedTransaction({
        from: 'eth',
        to: 'btc',
        amountFrom: '1',
        rateId: quote.rateId,
        address: address('bitcoin'),
        refundAddress: address('ethereum'),
      });

      const view = await sandbox.control.deposit(created.id, { late: true });

      expect(view.status).toBe('expired');
      await expect(statusOf(sandbox, created.id)).resolves.toBe('expired');
    });

    it('keeps a forced hold until another status is forced', async () => {
      const created = await sut.createTransaction({
        from: 'ltc',
        to: 'btc',
        amountFrom: '1',
        address: address('bitcoin'),
      });
      await sandbox.control.deposit(created.id);

      await sandbox.control.forceStatus(created.id, 'hold');
      await sleep(700);
      await expect(statusOf(sandbox, created.id)).resolves.toBe('hold');

      await sandbox.control.forceStatus(created.id, 'sending');
      const { tx } = await watch(sut, created.id, (t) => t.status === 'finished');
      expect(tx.status).toBe('finished');
      expect(tx.payoutHash).toEqual(expect.any(String));
    });

    it.each(['failed', 'refunded'] as const)('reports a forced %s', async (status) => {
      const created = await sut.createTransaction({
        from: 'ltc',
        to: 'btc',
        amountFrom: '1',
        address: address('bitcoin'),
      });

      await sandbox.control.forceStatus(created.id, status);

      await expect(statusOf(sandbox, created.id)).resolves.toBe(status);
    });

    it('refuses a deposit to a swap that is not waiting', async () => {
      const created = await sut.createTransaction({
        from: 'ltc',
        to: 'btc',
        amountFrom: '1',
        address: address('bitcoin'),
      });
      await sandbox.control.forceStatus(created.id, 'failed');

      await expect(sandbox.control.deposit(created.id)).rejects.toThrow(/400/);
      await expect(sandbox.control.deposit('nope')).rejects.toThrow(/404.*not_found/);
    });
  });

  describe('deadlines', () => {
    let short: TestSandbox;
    let adapter: ChangellyAdapter;

    beforeAll(async () => {
      short = await startTestSandbox(
        {},
        { floatWindowMs: 300, fixedPayWindowMs: 300, rateTtlMs: 300 },
      );
      adapter = new ChangellyAdapter(testProviderConfig(short.url));
    });

    afterAll(async () => {
      await short.close();
    });

    it('marks a float swap overdue when no deposit arrives in the window', async () => {
      const created = await adapter.createTransaction({
        from: 'btc',
        to: 'eth',
        amountFrom: '0.05',
        address: address('ethereum'),
      });
      await expect(statusOf(short, created.id)).resolves.toBe('new');

      await sleep(400);

      await expect(statusOf(short, created.id)).resolves.toBe('overdue');
    });

    it('expires a fixed swap whose payTill passed without a deposit', async () => {
      const quote = await adapter.getFixedQuote({ from: 'eth', to: 'btc', amountFrom: '1' });
      const created = await adapter.createFixedTransaction({
        from: 'eth',
        to: 'btc',
        amountFrom: '1',
        rateId: quote.rateId,
        address: address('bitcoin'),
        refundAddress: address('ethereum'),
      });

      await sleep(400);

      await expect(statusOf(short, created.id)).resolves.toBe('expired');
    });

    it('refuses an expired rate id with -32602', async () => {
      const quote = await adapter.getFixedQuote({ from: 'eth', to: 'btc', amountFrom: '1' });
      await sleep(400);

      const error: unknown = await adapter
        .createFixedTransaction({
          from: 'eth',
          to: 'btc',
          amountFrom: '1',
          rateId: quote.rateId,
          address: address('bitcoin'),
          refundAddress: address('ethereum'),
        })
        .catch((e: unknown) => e);

      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({
        code: ErrorCode.RateExpired,
        status: 409,
        upstreamCode: -32602,
        upstreamMessage: 'rateId was expired or already used',
      });
    });
  });

  describe('control API', () => {
    it('counts calls per method, ids per getTransactions call and calls per second', async () => {
      await sandbox.control.reset();
      const created = await sut.createTransaction({
        from: 'btc',
        to: 'eth',
        amountFrom: '0.05',
        address: address('ethereum'),
      });
      await sut.getTransactions({ ids: [created.id, 'missing'] });
      await statusOf(sandbox, created.id);

      const stats = await sandbox.control.stats();

      expect(stats.calls).toEqual({ createTransaction: 1, getTransactions: 1, getStatus: 1 });
      expect(stats.totalCalls).toBe(3);
      expect(stats.getTransactions).toEqual({
        calls: 1,
        idsRequested: 2,
        maxIdsPerCall: 2,
        idsPerCall: [2],
        listingOffsets: [],
      });
      expect(stats.perSecond.reduce((sum, b) => sum + b.calls, 0)).toBe(3);
      expect(stats.maxCallsPerSecond).toBeGreaterThanOrEqual(1);
      expect(stats.providers.changelly).toMatchObject({ calls: stats.calls, totalCalls: 3 });
      expect(stats.providers.changenow).toMatchObject({ calls: {}, totalCalls: 0 });
    });

    it('reset forgets transactions and restarts the seeded sequence', async () => {
      const request = { from: 'btc', to: 'eth', amountFrom: '0.05', address: address('ethereum') };
      await sandbox.control.reset();
      const first = await sut.createTransaction(request);
      await sandbox.control.reset();

      await expect(sandbox.control.transaction(first.id)).rejects.toThrow(/404/);
      const again = await sut.createTransaction(request);
      expect(again.id).toBe(first.id);
      expect(again.payinAddress).toBe(first.payinAddress);
    });

    it('rejects a malformed fault with the error envelope', async () => {
      const response = await fetch(`${sandbox.baseUrl}/sandbox/faults`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ method: '*', mode: 'meltdown' }),
      });

      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: { type: 'validation_error', param: 'mode' },
      });
    });
  });

  describe('ChangeNOW API', () => {
    const KEY = { [CHANGENOW_API_KEY_HEADER]: TEST_CHANGENOW_API_KEY };

    async function call(
      path: string,
      init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
    ): Promise<{ status: number; headers: Headers; text: string; json: () => unknown }> {
      const response = await fetch(`${sandbox.changenowUrl}/v2/${path}`, {
        method: init.method ?? 'GET',
        headers: {
          ...(init.headers ?? KEY),
          ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await response.text();
      return {
        status: response.status,
        headers: response.headers,
        text,
        json: () => JSON.parse(text),
      };
    }

    const pair = (from: string, fromNetwork: string, to: string, toNetwork: string) =>
      `fromCurrency=${from}&fromNetwork=${fromNetwork}&toCurrency=${to}&toNetwork=${toNetwork}`;

    async function createExchange(
      body: Record<string, unknown> = {},
    ): Promise<Record<string, unknown>> {
      const created = await call('exchange', {
        method: 'POST',
        body: {
          fromCurrency: 'btc',
          fromNetwork: 'btc',
          toCurrency: 'usdt',
          toNetwork: 'eth',
          fromAmount: '0.05',
          address: address('ethereum'),
          flow: 'standard',
          type: 'direct',
          ...body,
        },
      });
      expect(created.status).toBe(200);
      return created.json() as Record<string, unknown>;
    }

    afterEach(async () => {
      await sandbox.control.clearFaults();
      await sandbox.control.restoreSpreads();
    });

    it('refuses a call without the configured key with 401, as ChangeNOW does, and counts it', async () => {
      const before = (await sandbox.control.stats()).providers.changenow.rejected.unauthorized;

      const missing = await call('exchange/currencies', { headers: {} });
      const wrong = await call('exchange/currencies', {
        headers: { [CHANGENOW_API_KEY_HEADER]: 'not-the-key-at-all-000' },
      });

      for (const answer of [missing, wrong]) {
        expect(answer.status).toBe(401);
        expect(answer.json()).toEqual({ error: 'unauthorized', message: 'Invalid api key' });
      }
      expect((await sandbox.control.stats()).providers.changenow.rejected.unauthorized).toBe(
        before + 2,
      );
    });

    it("lists Changelly's catalogue less bch plus dai and link, as tickers on networks", async () => {
      const all = (await call('exchange/currencies')).json() as Record<string, unknown>[];
      const active = (await call('exchange/currencies?active=true')).json() as Record<
        string,
        unknown
      >[];
      const names = active.map((c) => `${String(c.ticker)}/${String(c.network)}`);

      expect(names).toEqual(
        expect.arrayContaining([
          'usdt/trx',
          'usdt/eth',
          'bnb/bsc',
          'pol/matic',
          'dai/eth',
          'link/eth',
        ]),
      );
      expect(names).not.toContain('bch/bch');
      expect(all.map((c) => c.ticker)).toContain('etc');
      expect(names).not.toContain('etc/etc');
      expect(active.find((c) => c.ticker === 'dai')).toEqual({
        ticker: 'dai',
        name: 'Dai (ERC20)',
        image: expect.any(String),
        hasExternalId: false,
        isExtraIdSupported: false,
        isFiat: false,
        featured: false,
        isStable: true,
        supportsFixedRate: true,
        network: 'eth',
        tokenContract: '0x6B175474E89094C44Da98b954EedeAC495271d0F',
        buy: true,
        sell: true,
        legacyTicker: 'dai',
      });
      expect(active.every((c) => c.supportsFixedRate === true)).toBe(true);
    });

    it('answers a range per flow, and pair_is_inactive for a pair it does not offer', async () => {
      const standard = await call(
        `exchange/range?${pair('btc', 'btc', 'eth', 'eth')}&flow=standard`,
      );
      const fixed = await call(
        `exchange/range?${pair('btc', 'btc', 'eth', 'eth')}&flow=fixed-rate`,
      );
      const toDash = await call(`exchange/range?${pair('btc', 'btc', 'dash', 'dash')}`);
      const bch = await call(`exchange/range?${pair('bch', 'bch', 'eth', 'eth')}`);

      expect(standard.json()).toEqual({
        fromCurrency: 'btc',
        fromNetwork: 'btc',
        toCurrency: 'eth',
        toNetwork: 'eth',
        flow: 'standard',
        minAmount: expect.any(Number),
        maxAmount: expect.any(Number),
      });
      const [s, f] = [standard.json(), fixed.json()] as { minAmount: number; maxAmount: number }[];
      expect(f.minAmount).toBeGreaterThan(s.minAmount);
      expect(f.maxAmount).toBeLessThan(s.maxAmount);
      for (const refused of [toDash, bch]) {
        expect(refused.status).toBe(400);
        expect(refused.json()).toEqual({ error: 'pair_is_inactive', message: 'Pair is inactive' });
      }
    });

    it('estimates a standard flow, and a fixed one with a rate id valid for a minute', async () => {
      const standard = await call(
        `exchange/estimated-amount?${pair('btc', 'btc', 'eth', 'eth')}&fromAmount=0.1&flow=standard`,
      );
      const fixed = await call(
        `exchange/estimated-amount?${pair('btc', 'btc', 'eth', 'eth')}&fromAmount=0.1&flow=fixed-rate&useRateId=true`,
      );

      expect(standard.json()).toMatchObject({
        flow: 'standard',
        type: 'direct',
        rateId: null,
        validUntil: null,
        depositFee: 0,
        withdrawalFee: 0.0006,
        fromAmount: 0.1,
        toAmount: expect.any(Number),
      });
      const locked = fixed.json() as { rateId: string; validUntil: string; toAmount: number };
      expect(locked.rateId).toMatch(/^[a-z0-9]{32}$/);
      expect(Date.parse(locked.validUntil) - Date.now()).toBeGreaterThan(50_000);
      expect(locked.toAmount).toBeLessThan((standard.json() as { toAmount: number }).toAmount);
    });

    it.each([
      ['0.00000001', 'less than the minimal'],
      ['100000', 'more than the maximal'],
    ])('answers out_of_range for %s', async (amountFrom, words) => {
      const answer = await call(
        `exchange/estimated-amount?${pair('btc', 'btc', 'eth', 'eth')}&fromAmount=${amountFrom}`,
      );

      expect(answer.status).toBe(400);
      expect(answer.json()).toEqual({
        error: 'out_of_range',
        message: expect.stringContaining(words),
      });
    });

    it('creates an exchange that keeps its payload, found by id and in the list, newest first', async () => {
      const first = await createExchange({ payload: { userMetadata: 'attempt:one' } });
      const second = await createExchange();

      const byId = await call(`exchange/by-id?id=${String(first.id)}`);
      const listed = (await call('exchanges?limit=2')).json() as {
        count: number;
        exchanges: { id: string; payload: unknown }[];
      };

      expect(first).toMatchObject({
        id: expect.stringMatching(/^[0-9a-f]{14}$/),
        flow: 'standard',
        type: 'direct',
        status: 'new',
        fromCurrency: 'btc',
        toCurrency: 'usdt',
        toNetwork: 'eth',
        fromAmount: 0.05,
        payload: { userMetadata: 'attempt:one' },
        validUntil: null,
      });
      expect(byId.json()).toMatchObject({
        id: first.id,
        status: 'new',
        flow: 'standard',
        expectedAmountFrom: 0.05,
        expectedAmountTo: first.toAmount,
        amountFrom: null,
        depositReceivedAt: null,
        payload: { userMetadata: 'attempt:one' },
      });
      expect(listed.exchanges.map((e) => e.id)).toEqual([second.id, first.id]);
      expect(listed.exchanges[1]?.payload).toEqual({ userMetadata: 'attempt:one' });
      expect(listed.count).toBeGreaterThanOrEqual(2);
    });

    it('lists only the exchanges created in [dateFrom, dateTo]', async () => {
      const from = new Date().toISOString();
      const inside = await createExchange();
      const to = new Date().toISOString();
      await new Promise((resolve) => setTimeout(resolve, 5));
      await createExchange();

      const listed = (await call(`exchanges?dateFrom=${from}&dateTo=${to}&limit=100`)).json() as {
        exchanges: { id: string }[];
      };

      expect(listed.exchanges.map((e) => e.id)).toEqual([inside.id]);
    });

    it('redeems a rate id once, for its own pair and amount', async () => {
      const rateId = (
        (
          await call(
            `exchange/estimated-amount?${pair('eth', 'eth', 'btc', 'btc')}&fromAmount=1&flow=fixed-rate&useRateId=true`,
          )
        ).json() as { rateId: string }
      ).rateId;
      const fixed = {
        fromCurrency: 'eth',
        fromNetwork: 'eth',
        toCurrency: 'btc',
        toNetwork: 'btc',
        fromAmount: '1',
        address: address('bitcoin'),
        flow: 'fixed-rate',
        rateId,
      };

      const otherAmount = await call('exchange', {
        method: 'POST',
        body: { ...fixed, fromAmount: '2' },
      });
      const created = await call('exchange', { method: 'POST', body: fixed });
      const again = await call('exchange', { method: 'POST', body: fixed });

      expect(otherAmount.json()).toMatchObject({ error: 'not_valid_params' });
      expect(created.json()).toMatchObject({ flow: 'fixed-rate', validUntil: expect.any(String) });
      expect(again.status).toBe(400);
      expect(again.json()).toEqual({
        error: 'rate_id_not_found_or_expired',
        message: 'Rate id not found or expired',
      });
    });

    it('refuses bad addresses, a bad payload and a body that is not JSON', async () => {
      const payout = await call('exchange', {
        method: 'POST',
        body: {
          fromCurrency: 'btc',
          fromNetwork: 'btc',
          toCurrency: 'eth',
          toNetwork: 'eth',
          fromAmount: '0.05',
          address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD',
        },
      });
      const refund = await call('exchange', {
        method: 'POST',
        body: {
          fromCurrency: 'btc',
          fromNetwork: 'btc',
          toCurrency: 'eth',
          toNetwork: 'eth',
          fromAmount: '0.05',
          address: address('ethereum'),
          refundAddress: 'nope',
        },
      });
      const payload = await call('exchange', {
        method: 'POST',
        body: {
          fromCurrency: 'btc',
          fromNetwork: 'btc',
          toCurrency: 'eth',
          toNetwork: 'eth',
          fromAmount: '0.05',
          address: address('ethereum'),
          payload: { note: 'x'.repeat(65) },
        },
      });
      const garbage = await fetch(`${sandbox.changenowUrl}/v2/exchange`, {
        method: 'POST',
        headers: { ...KEY, 'Content-Type': 'application/json' },
        body: '{not json',
      });

      expect(payout.json()).toEqual({ error: 'not_valid_address', message: 'Invalid address' });
      expect(refund.json()).toEqual({
        error: 'not_valid_address',
        message: 'Invalid refund address',
      });
      expect(payload.json()).toMatchObject({ error: 'not_valid_params' });
      expect(garbage.status).toBe(400);
      expect(await garbage.json()).toMatchObject({ error: 'not_valid_params' });
    });

    it('answers 404 not_found for an id it does not know, and for a Changelly id', async () => {
      const changelly = await sut.createTransaction({
        from: 'btc',
        to: 'eth',
        amountFrom: '0.05',
        address: address('ethereum'),
      });

      for (const id of ['ffffffffffffff', changelly.id]) {
        const answer = await call(`exchange/by-id?id=${id}`);
        expect(answer.status).toBe(404);
        expect(answer.json()).toEqual({ error: 'not_found', message: 'Transaction not found' });
      }
    });

    it('checks an address on the network it names', async () => {
      const good = await call(
        `validate/address?currency=trx&address=TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t`,
      );
      const bad = await call(
        'validate/address?currency=eth&address=0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD',
      );

      expect(good.json()).toEqual({ result: true, message: null, isActivated: null });
      expect(bad.json()).toEqual({
        result: false,
        message: expect.stringMatching(/checksum/),
        isActivated: null,
      });
    });

    it("moves through the lifecycle on the control API, in ChangeNOW's words", async () => {
      const created = await createExchange();
      const id = String(created.id);

      const view = await sandbox.control.deposit(id);
      await sandbox.control.forceStatus(id, 'hold');
      const held = (await call(`exchange/by-id?id=${id}`)).json() as Record<string, unknown>;
      await sandbox.control.forceStatus(id, 'finished');
      const done = (await call(`exchange/by-id?id=${id}`)).json() as Record<string, unknown>;

      expect(view).toMatchObject({ id, provider: 'changenow', status: 'confirming' });
      expect(held.status).toBe('verifying');
      expect(done).toMatchObject({
        status: 'finished',
        amountFrom: 0.05,
        amountTo: created.toAmount,
        depositReceivedAt: expect.stringMatching(ISO),
        payinHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        payoutHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      });
    });

    it('sets, reads and restores a spread per provider, pair and direction', async () => {
      const seeded = await sandbox.control.spreads('btc', 'eth');
      const quote = async () =>
        (
          (
            await call(
              `exchange/estimated-amount?${pair('btc', 'btc', 'eth', 'eth')}&fromAmount=0.1`,
            )
          ).json() as { toAmount: number }
        ).toAmount;

      await sandbox.control.setSpread('changenow', 'btc', 'eth', 0);
      const best = await quote();
      await sandbox.control.setSpread('changenow', 'btc', 'eth', 500);
      const worse = await quote();
      const set = await sandbox.control.spreads('btc', 'eth');
      await sandbox.control.restoreSpreads();

      expect(seeded.changelly).toBeGreaterThanOrEqual(0);
      expect(seeded.changenow).toBeGreaterThanOrEqual(0);
      expect(set).toEqual({ changelly: seeded.changelly, changenow: 500 });
      expect(worse).toBeLessThan(best * 0.96);
      expect(await sandbox.control.spreads('btc', 'eth')).toEqual(seeded);
    });

    it('refuses a spread on a currency the provider does not list', async () => {
      await expect(sandbox.control.setSpread('changelly', 'dai', 'eth', 10)).rejects.toThrow(
        /400.*param.*from/,
      );
      await expect(sandbox.control.setSpread('changenow', 'btc', 'eth', -1)).rejects.toThrow(/400/);
    });

    it('reset restores the seeded spreads', async () => {
      const seeded = await sandbox.control.spreads('eth', 'btc');
      await sandbox.control.setSpread('changelly', 'eth', 'btc', 999);

      await sandbox.control.reset();

      expect(await sandbox.control.spreads('eth', 'btc')).toEqual(seeded);
    });

    it.each([
      ['non_json', {}, 200, /<html>/],
      ['empty_result', {}, 200, /^\{\}$/],
      ['rpc_error', {}, 400, /"error":"out_of_range"/],
      [
        'rpc_error',
        { code: 'pair_is_inactive', message: 'Nope' },
        400,
        /"pair_is_inactive","message":"Nope"/,
      ],
      ['rate_limit', {}, 429, /"too_many_requests"/],
      ['http_500', {}, 500, /Internal Server Error/],
    ] as const)(
      'serves the fault %s %j on its operation only',
      async (mode, extra, status, body) => {
        await sandbox.control.setFault({ provider: 'changenow', method: 'range', mode, ...extra });

        const spoiled = await call(`exchange/range?${pair('btc', 'btc', 'eth', 'eth')}`);
        const next = await call(`exchange/range?${pair('btc', 'btc', 'eth', 'eth')}`);

        expect(spoiled.status).toBe(status);
        expect(spoiled.text).toMatch(body);
        if (mode === 'rate_limit') {
          expect(spoiled.headers.get('retry-after')).toBe('1');
        }
        expect(next.status).toBe(200);
      },
    );

    it('carries a timed-out create out and holds its answer back', async () => {
      const payout = address('ethereum');
      await sandbox.control.setFault({
        provider: 'changenow',
        method: 'exchange',
        mode: 'timeout',
        delayMs: 60_000,
      });

      const pending = fetch(`${sandbox.changenowUrl}/v2/exchange`, {
        method: 'POST',
        headers: { ...KEY, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          fromCurrency: 'btc',
          fromNetwork: 'btc',
          toCurrency: 'eth',
          toNetwork: 'eth',
          fromAmount: '0.05',
          address: payout,
        }),
        signal: AbortSignal.timeout(500),
      });
      await expect(pending).rejects.toThrow();

      const listed = (await call('exchanges?limit=5')).json() as {
        exchanges: { payoutAddress: string }[];
      };
      expect(listed.exchanges[0]?.payoutAddress).toBe(payout);
    });

    it('keeps faults per provider: a default fault is Changelly’s, and DELETE clears both', async () => {
      await sandbox.control.setFault({ method: '*', mode: 'http_500' });
      await sandbox.control.setFault({ provider: 'changenow', method: 'by-id', mode: 'http_500' });

      const faults = await (await fetch(`${sandbox.baseUrl}/sandbox/faults`)).json();
      const changenowCall = await call('exchange/currencies');
      await sandbox.control.clearFaults();
      const cleared = await (await fetch(`${sandbox.baseUrl}/sandbox/faults`)).json();

      expect(faults).toEqual({
        faults: [
          { provider: 'changelly', method: '*', mode: 'http_500', remaining: 1 },
          { provider: 'changenow', method: 'by-id', mode: 'http_500', remaining: 1 },
        ],
      });
      expect(changenowCall.status).toBe(200);
      expect(cleared).toEqual({ faults: [] });
    });

    it('refuses a fault whose code does not fit its provider', async () => {
      await expect(
        sandbox.control.setFault({
          provider: 'changenow',
          method: 'range',
          mode: 'rpc_error',
          code: -32600,
        }),
      ).rejects.toThrow(/400/);
      await expect(
        sandbox.control.setFault({
          method: 'getExchangeAmount',
          mode: 'rpc_error',
          code: 'out_of_range',
        }),
      ).rejects.toThrow(/400/);
    });

    it('counts each operation under its name, apart from Changelly’s calls', async () => {
      await sandbox.control.reset();
      await call('exchange/currencies');
      await call(`exchange/range?${pair('btc', 'btc', 'eth', 'eth')}`);
      await call(`exchange/estimated-amount?${pair('btc', 'btc', 'eth', 'eth')}&fromAmount=0.1`);
      const created = await createExchange();
      await call(`exchange/by-id?id=${String(created.id)}`);
      await call('exchanges');
      await call('validate/address?currency=btc&address=1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa');

      const stats = await sandbox.control.stats();

      expect(stats.providers.changenow).toMatchObject({
        calls: {
          currencies: 1,
          range: 1,
          'estimated-amount': 1,
          exchange: 1,
          'by-id': 1,
          exchanges: 1,
          'validate-address': 1,
        },
        totalCalls: 7,
      });
      expect(stats.totalCalls).toBe(0);
      expect(stats.calls).toEqual({});
      expect(stats.providers.changelly.totalCalls).toBe(0);
    });

    it('gives transaction ids unique across both providers', async () => {
      await sandbox.control.reset();
      const ids = new Set<string>();
      for (let i = 0; i < 5; i++) {
        ids.add(String((await createExchange()).id));
        ids.add(
          (
            await sut.createTransaction({
              from: 'btc',
              to: 'eth',
              amountFrom: '0.05',
              address: address('ethereum'),
            })
          ).id,
        );
      }

      expect(ids.size).toBe(10);
    });
  });
});
