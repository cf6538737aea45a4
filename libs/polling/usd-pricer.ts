import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode } from '#app/errors';
import { ProviderError } from '#app/provider';
import { KEY_VALUE_STORE, TieredCache, type KeyValueStore } from '#app/redis';
import { isBudgetRefusal, LiquidityRouter } from '#app/routing';
import { PollMetrics } from './poll-metrics.js';

/** The USDT tickers: a dollar each, no upstream call needed. */
const USDT_TICKERS = new Set(['usdt', 'usdtrx', 'usdt20', 'usdterc20', 'usdttrc20']);
/** The quote currency prices are read in (docs/decisions.md, "USD valuation of earnings"). */
const REFERENCE_TICKER = 'usdtrx';
/** One price per currency per minute, shared by every poller through the store. */
const PRICE_TTL_MS = 60_000;

/**
 * The USD price of a currency, read from a float quote into USDT (the quote's rate is the market
 * rate before fees, so it is the price per unit) of the first live provider in routing that lists
 * the currency, and kept a minute: at most one pricing call per currency per minute, however many
 * of its swaps finish. Only live swaps earn, so only live prices are ever needed.
 */
@Injectable()
export class UsdPricer {
  private readonly prices: TieredCache;

  constructor(
    private readonly router: LiquidityRouter,
    private readonly metrics: PollMetrics,
    @Inject(KEY_VALUE_STORE) store: KeyValueStore,
  ) {
    this.prices = new TieredCache(store, { namespace: 'usd-price' });
  }

  /** `amount` sizes the quote when one is needed; outside the pair's bounds the bound is quoted. */
  async usdPrice(ticker: string, amount: string): Promise<string> {
    if (USDT_TICKERS.has(ticker)) {
      return '1';
    }
    return this.prices.get(ticker, PRICE_TTL_MS, () => this.quotedPrice(ticker, amount));
  }

  private async quotedPrice(ticker: string, amount: string): Promise<string> {
    try {
      return (await this.quoteRate(ticker, amount)).rate;
    } catch (error: unknown) {
      const outOfBounds =
        error instanceof ProviderError &&
        (error.code === ErrorCode.AmountBelowMin || error.code === ErrorCode.AmountAboveMax) &&
        error.bound !== null;
      if (!outOfBounds) {
        throw error;
      }
      return (await this.quoteRate(ticker, error.bound ?? amount)).rate;
    }
  }

  private async quoteRate(ticker: string, amountFrom: string): Promise<{ rate: string }> {
    const provider = await this.router.listing(true, ticker);
    try {
      return await provider.getFloatQuote({ from: ticker, to: REFERENCE_TICKER, amountFrom });
    } catch (error: unknown) {
      if (isBudgetRefusal(error)) {
        this.metrics.budgetExhausted(provider.name, true);
      }
      throw error;
    }
  }
}
