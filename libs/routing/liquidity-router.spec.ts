import { Decimal } from 'decimal.js';
import { AppError, ErrorCode } from '#app/errors';
import { ProviderError, unavailable, type ProviderFloatQuote } from '#app/provider';
import { btcEthParams, providerCurrency } from '#test/factories';
import { FakeLiquidityProvider, routerOver, type TestRouter } from '#test/fakes';
import type { PairOffer, RouteAsk } from './liquidity-router.js';
import { QUOTE_TIME_LIMIT_MS } from './liquidity-router.js';

/** What one provider's refusal of an amount looks like. */
function belowMin(bound: string): ProviderError {
  return new ProviderError(ErrorCode.AmountBelowMin, `Minimal amount is ${bound}.`, {
    method: 'getExchangeAmount',
    delivery: 'refused',
    bound,
  });
}

function outOfBudget(): ProviderError {
  return new ProviderError(ErrorCode.UpstreamRateLimited, 'no slot now', {
    method: 'getExchangeAmount',
    delivery: 'not_sent',
  });
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error: unknown = await promise.then(
    () => new Error('expected a refusal'),
    (e: unknown) => e,
  );
  if (error instanceof AppError) {
    return error;
  }
  throw error;
}

describe('LiquidityRouter', () => {
  let changelly: FakeLiquidityProvider;
  let changenow: FakeLiquidityProvider;
  let routing: TestRouter;

  beforeEach(() => {
    changelly = new FakeLiquidityProvider('cl', 'changelly');
    changenow = new FakeLiquidityProvider('cn', 'changenow', false);
    routing = routerOver([changelly, changenow]);
  });

  afterEach(async () => {
    await routing.store.close();
  });

  async function floatAsk(amountFrom = '0.1'): Promise<RouteAsk<ProviderFloatQuote>> {
    const offers = await routing.router.offers(true, 'btc', 'eth');
    return {
      livemode: true,
      offers,
      from: 'btc',
      to: 'eth',
      amountFrom,
      flow: 'float',
      ask: (provider) => provider.getFloatQuote({ from: 'btc', to: 'eth', amountFrom }),
      receives: (quote) => new Decimal(quote.amountTo).minus(quote.networkFee),
    };
  }

  const winner = async (amountFrom = '0.1') =>
    (await routing.router.quote(await floatAsk(amountFrom)))[0];

  describe('ranking', () => {
    it('answers the quote where the user receives the most, and counts its win', async () => {
      changelly.quoteOutcome = { amountTo: '1.5', networkFee: '0.001' };
      changenow.quoteOutcome = { amountTo: '1.52', networkFee: '0.001' };

      const best = await winner();
      await routing.recorder.flush();

      expect(best.provider).toBe('changenow');
      expect(best.value.quote.amountTo).toBe('1.52');
      expect(routing.stats.total('changenow')).toMatchObject({ quotes: 1, wins: 1 });
      expect(routing.stats.total('changelly')).toMatchObject({ quotes: 1, wins: 0 });
    });

    it('ranks by what is left after the network fee, not by the amount before it', async () => {
      changelly.quoteOutcome = { amountTo: '1.5', networkFee: '0.001' };
      changenow.quoteOutcome = { amountTo: '1.51', networkFee: '0.02' };

      expect((await winner()).provider).toBe('changelly');
    });

    it('gives a tie to the earlier provider in PROVIDERS', async () => {
      changelly.quoteOutcome = { amountTo: '1.5', networkFee: '0.001' };
      changenow.quoteOutcome = { amountTo: '1.5', networkFee: '0.001' };

      expect((await winner()).provider).toBe('changelly');
    });

    it('weighs a float estimate by the fidelity of its provider on the pair', async () => {
      changelly.quoteOutcome = { amountTo: '1.5', networkFee: '0' };
      changenow.quoteOutcome = { amountTo: '1.6', networkFee: '0' };
      routing.stats.fidelities.set('changenow', { value: '0.9', swaps: 25 });

      expect((await winner()).provider).toBe('changelly');
    });
  });

  describe('bounds', () => {
    beforeEach(() => {
      changelly.bounds = btcEthParams({ minAmountFloat: '0.01', maxAmountFloat: '1' });
      changenow.bounds = btcEthParams({ minAmountFloat: '2', maxAmountFloat: '50' });
    });

    it('asks only the providers whose range takes the amount', async () => {
      expect((await winner('10')).provider).toBe('changenow');
      expect(changelly.quotes).toEqual([]);
    });

    it('refuses an amount in a gap between ranges, naming the next minimum, asking no one', async () => {
      const error = await rejection(winner('1.5'));

      expect(error).toMatchObject({ code: ErrorCode.AmountBelowMin, param: 'amountFrom' });
      expect(error.message).toBe('Minimal amount is 2 btc.');
      expect([...changelly.quotes, ...changenow.quotes]).toEqual([]);
    });

    it('refuses an amount above every range with the highest maximum', async () => {
      const error = await rejection(winner('60'));

      expect(error).toMatchObject({ code: ErrorCode.AmountAboveMax });
      expect(error.message).toBe('Maximal amount is 50 btc.');
    });
  });

  describe('outcomes without a quote', () => {
    it('answers a refusal over a failure', async () => {
      changelly.quoteOutcome = unavailable('getExchangeAmount', 'timeout', 'unknown');
      changenow.quoteOutcome = belowMin('0.5');

      const error = await rejection(winner());

      expect(error.code).toBe(ErrorCode.AmountBelowMin);
    });

    it('names the bound across providers when every one refuses the amount', async () => {
      changelly.quoteOutcome = belowMin('0.5');
      changenow.quoteOutcome = belowMin('0.3');

      const error = await rejection(winner());

      expect(error).toMatchObject({ code: ErrorCode.AmountBelowMin });
      expect(error.message).toBe('Minimal amount is 0.3 btc.');
    });

    it('answers 503 upstream_error when every provider failed', async () => {
      changelly.quoteOutcome = unavailable('getExchangeAmount', 'refused', 'not_sent');
      changenow.quoteOutcome = new ProviderError(ErrorCode.UpstreamError, '500', {
        method: 'estimated-amount',
        delivery: 'unknown',
      });

      const error = await rejection(winner());

      expect(error).toMatchObject({ code: ErrorCode.UpstreamUnavailable, status: 503 });
      expect(error.type).toBe('upstream_error');
    });

    it("answers a lone provider's own error as it is, as one provider always did", async () => {
      const alone = routerOver([changelly]);
      changelly.quoteOutcome = new ProviderError(ErrorCode.UpstreamBadResponse, 'garbage', {
        method: 'getExchangeAmount',
        delivery: 'unknown',
      });
      const ask = { ...(await floatAsk()), offers: await alone.router.offers(true, 'btc', 'eth') };

      const error = await rejection(alone.router.quote(ask));

      expect(error.code).toBe(ErrorCode.UpstreamBadResponse);
      await alone.store.close();
    });
  });

  it('stops waiting for a slow provider at its time limit and answers with the other', async () => {
    changelly.quoteOutcome = 'hang';
    changenow.quoteOutcome = { amountTo: '1.4', networkFee: '0.001' };
    const started = performance.now();

    const best = await winner();

    const elapsed = performance.now() - started;
    expect(best.provider).toBe('changenow');
    expect(elapsed).toBeGreaterThanOrEqual(QUOTE_TIME_LIMIT_MS - 50);
    expect(elapsed).toBeLessThan(QUOTE_TIME_LIMIT_MS + 5_000);
  });

  describe('budgets', () => {
    it('skips a provider whose budget has no slot now', async () => {
      changelly.quoteOutcome = outOfBudget();
      changenow.quoteOutcome = { amountTo: '1.4', networkFee: '0.001' };

      expect((await winner()).provider).toBe('changenow');
    });

    it('waits for the first provider when no budget has a slot now', async () => {
      const ask = await floatAsk();
      const asked: string[] = [];
      const answers = [outOfBudget(), outOfBudget()];

      const best = await routing.router.quote({
        ...ask,
        ask: (provider) => {
          asked.push(provider.name);
          const refusal = answers.shift();
          return refusal
            ? Promise.reject(refusal)
            : provider.getFloatQuote({ from: 'btc', to: 'eth', amountFrom: '0.1' });
        },
      });

      expect(asked).toEqual(['changelly', 'changenow', 'changelly']);
      expect(best[0].provider).toBe('changelly');
    });

    it("tells its watchers of each call a provider's budget refused, as a quote's or a create's", async () => {
      changelly.quoteOutcome = outOfBudget();
      changenow.quoteOutcome = { amountTo: '1.4', networkFee: '0.001' };

      await winner();
      const refusal = outOfBudget();
      await expect(
        routing.router.create(changenow, false, () => Promise.reject(refusal)),
      ).rejects.toBe(refusal);

      expect(routing.observed.budgetRefusals).toEqual([
        ['changelly', true, 'quote'],
        ['changenow', false, 'create'],
      ]);
      expect(routing.observed.wins).toEqual([['changenow', true]]);
    });
  });

  describe('circuits', () => {
    const failing = () => unavailable('getExchangeAmount', 'timeout', 'unknown');

    it('skips a provider whose circuit opened while another is closed', async () => {
      changelly.quoteOutcome = failing();
      for (let i = 0; i < 5; i++) {
        await winner();
      }
      changelly.quoteOutcome = { amountTo: '9', networkFee: '0' };
      const asked = changelly.quotes.length;

      expect((await winner()).provider).toBe('changenow');
      expect(changelly.quotes).toHaveLength(asked);
    });

    it('still asks providers whose circuits are open when no other is closed', async () => {
      changelly.quoteOutcome = failing();
      changenow.quoteOutcome = failing();
      for (let i = 0; i < 5; i++) {
        await rejection(winner());
      }
      changenow.quoteOutcome = { amountTo: '1.4', networkFee: '0.001' };

      expect((await winner()).provider).toBe('changenow');
    });
  });

  describe('catalogue', () => {
    it('lists every currency of every provider in routing once', async () => {
      changenow.listed = [...changenow.listed, providerCurrency('dai', 'ethereum', 18)];

      const { currencies } = await routing.router.catalogue(true);

      expect(currencies.map((c) => c.ticker)).toEqual(['btc', 'eth', 'dai']);
    });

    it('offers a pair only at the providers that list both currencies', async () => {
      changenow.listed = [...changenow.listed, providerCurrency('dai', 'ethereum', 18)];

      const offers: PairOffer[] = await routing.router.offers(true, 'btc', 'dai');

      expect(offers.map((o) => o.provider.name)).toEqual(['changenow']);
    });

    it('leaves out a provider operators took out of routing', async () => {
      routing.settings.off.add('changelly');

      const offers = await routing.router.offers(true, 'btc', 'eth');

      expect(offers.map((o) => o.provider.name)).toEqual(['changenow']);
    });
  });

  describe('creation order', () => {
    it('creates at the only provider that can take the amount without asking for a quote', async () => {
      changenow.bounds = btcEthParams({ minAmountFloat: '5' });

      const order = await routing.router.creationOrder(await floatAsk('0.1'));

      expect(order.map((o) => o.provider.name)).toEqual(['changelly']);
      expect([...changelly.quotes, ...changenow.quotes]).toEqual([]);
    });

    it('ranks several providers by a quote at the moment of creation', async () => {
      changelly.quoteOutcome = { amountTo: '1.5', networkFee: '0.001' };
      changenow.quoteOutcome = { amountTo: '1.6', networkFee: '0.001' };

      const order = await routing.router.creationOrder(await floatAsk());

      expect(order.map((o) => o.provider.name)).toEqual(['changenow', 'changelly']);
    });
  });
});
