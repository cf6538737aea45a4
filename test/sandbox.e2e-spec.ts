import { randomBytes } from 'node:crypto';
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { DECIMAL_STRING, type SwapMode } from '#app/domain';
import { generateAddress, isChain, validateAddress, type Chain } from '#app/chains';
import { ErrorCode } from '#app/errors';
import { MemoryStore } from '#app/redis';
import {
  ChangellyAdapter,
  ProviderError,
  providerAuthHeaders,
  type ProviderCurrency,
  type ProviderTransaction,
} from '#app/provider';
import { providerKeyPair } from './support/keys.js';
import { startTestSandbox, testProviderConfig, type TestSandbox } from './support/sandbox.js';

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
  timeoutMs = 5000,
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

      // Polling may skip a step on a slow machine; the order and the ends are fixed.
      const steps = ['confirming', 'exchanging', 'sending', 'finished'];
      expect(seen[0]).toBe('confirming');
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
});
