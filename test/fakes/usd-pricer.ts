import type { UsdPricer } from '#app/polling';

/** USD prices by ticker, `1` unless set; a price set to an error fails its pricing with it. */
export class FakeUsdPricer implements Pick<UsdPricer, 'usdPrice'> {
  readonly prices = new Map<string, string | Error>();

  usdPrice(ticker: string): Promise<string> {
    const price = this.prices.get(ticker) ?? '1';
    return price instanceof Error ? Promise.reject(price) : Promise.resolve(price);
  }
}
