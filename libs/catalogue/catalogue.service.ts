import { Inject, Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '#app/errors';
import {
  LIQUIDITY_PROVIDER,
  type LiquidityProvider,
  type ProviderCurrency,
  type ProviderPairParams,
} from '#app/provider';
import { resolveCurrency } from './ticker-aliases.js';

export type SwapDirection = 'from' | 'to';

/** A usable pair: both currencies resolved to canonical form, with the provider's bounds. */
export interface ResolvedPair {
  from: ProviderCurrency;
  to: ProviderCurrency;
  params: ProviderPairParams;
}

function pairUnsupported(message = 'This currency pair is not supported.'): AppError {
  return new AppError(ErrorCode.PairUnsupported, message, { param: 'pair' });
}

/**
 * An unknown or memo currency is a pair the service does not support (docs/decisions.md, "Tickers
 * and aliases").
 */
function known(found: ProviderCurrency | null, raw: string): ProviderCurrency {
  if (!found) {
    throw pairUnsupported(`Unknown or unsupported currency '${raw.slice(0, 32)}'.`);
  }
  return found;
}

/**
 * The currency catalogue as partners see it: memo currencies (non-null `extraIdName`) do not
 * exist in v1, tickers are canonical. Backed by the provider adapter's caches.
 */
@Injectable()
export class CatalogueService {
  /** The adapter hands out the same list while it is cached, so filtering it once suffices. */
  private readonly listedBySource = new WeakMap<ProviderCurrency[], ProviderCurrency[]>();

  constructor(@Inject(LIQUIDITY_PROVIDER) private readonly provider: LiquidityProvider) {}

  async currencies(): Promise<ProviderCurrency[]> {
    const all = await this.provider.getCurrencies();
    let listed = this.listedBySource.get(all);
    if (!listed) {
      listed = all.filter((c) => c.extraIdName === null);
      this.listedBySource.set(all, listed);
    }
    return listed;
  }

  /** Resolves one ticker; unknown and memo currencies answer `pair_unsupported`. */
  async currency(raw: string): Promise<ProviderCurrency> {
    return known(resolveCurrency(raw, await this.currencies()), raw);
  }

  async pair(rawFrom: string, rawTo: string): Promise<ResolvedPair> {
    const currencies = await this.currencies();
    const from = known(resolveCurrency(rawFrom, currencies), rawFrom);
    const to = known(resolveCurrency(rawTo, currencies), rawTo);
    if (from.ticker === to.ticker) {
      throw new AppError(
        ErrorCode.InvalidRequest,
        '`from` and `to` must be different currencies.',
        {
          param: 'to',
        },
      );
    }
    if (!from.enabled || !from.enabledFrom) {
      throw pairUnsupported(`${from.ticker} cannot be sent at the moment.`);
    }
    if (!to.enabled || !to.enabledTo) {
      throw pairUnsupported(`${to.ticker} cannot be received at the moment.`);
    }
    const params = await this.provider
      .getPairParams(from.ticker, to.ticker)
      .catch((error: unknown) => {
        if (error instanceof AppError && error.code === ErrorCode.InvalidRequest) {
          throw pairUnsupported();
        }
        throw error;
      });
    return { from, to, params };
  }
}
