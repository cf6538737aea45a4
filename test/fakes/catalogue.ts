import type { CatalogueService, ResolvedPair } from '#app/catalogue';
import { btcEthPair } from '../factories/provider.js';

/** A catalogue that resolves every pair asked to `resolved` (BTC to ETH), and notes each ask. */
export class FakeCatalogue implements Pick<CatalogueService, 'pair'> {
  readonly asked: [string, string][] = [];

  constructor(private readonly resolved: ResolvedPair = btcEthPair()) {}

  pair(livemode: boolean, from: string, to: string): Promise<ResolvedPair> {
    this.asked.push([from, to]);
    return Promise.resolve({ ...this.resolved, livemode });
  }
}
