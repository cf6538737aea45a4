import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode } from '#app/errors';
import { LIQUIDITY_PROVIDER, ProviderError, type LiquidityProvider } from '#app/provider';

/** The USDT tickers: a dollar each, no upstream call needed. */
const USDT_TICKERS = new Set(['usdt', 'usdtrx', 'usdt20', 'usdterc20', 'usdttrc20']);
/** The quote currency prices are read in (docs/decisions.md, "USD valuation of earnings"). */
const REFERENCE_TICKER = 'usdtrx';

/**
 * The USD price of a currency at this moment, read from a provider float quote into USDT: the
 * quote's rate is the market rate before fees, so it is the price per unit.
 */
@Injectable()
export class UsdPricer {
  constructor(@Inject(LIQUIDITY_PROVIDER) private readonly provider: LiquidityProvider) {}

  /** `amount` picks the quote size; outside the pair's bounds the nearest bound is quoted. */
  async usdPrice(ticker: string, amount: string): Promise<string> {
    if (USDT_TICKERS.has(ticker)) {
      return '1';
    }
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

  private quoteRate(ticker: string, amountFrom: string): Promise<{ rate: string }> {
    return this.provider.getFloatQuote({ from: ticker, to: REFERENCE_TICKER, amountFrom });
  }
}
