import { Injectable } from '@nestjs/common';
import type { SwapMode } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import type { ProviderCurrency, ProviderPairParams } from '#app/provider';
import { flowBounds, LiquidityRouter, unionBounds, type PairOffer } from '#app/routing';
import { resolveCurrency } from './ticker-aliases.js';

export type SwapDirection = 'from' | 'to';

/**
 * A usable pair: both currencies resolved to canonical form, the bounds partners see (the union of
 * the providers') and what each provider in routing offers on it.
 */
export interface ResolvedPair {
  livemode: boolean;
  from: ProviderCurrency;
  to: ProviderCurrency;
  params: ProviderPairParams;
  offers: PairOffer[];
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
 * The currency catalogue as partners see it: the union of the providers in routing (each currency
 * once, its bounds the widest any provider offers), memo currencies (non-null `extraIdName`) do
 * not exist in v1, tickers are canonical. Each mode has its own providers, so the mode is asked.
 */
@Injectable()
export class CatalogueService {
  /** The router hands out the same list while it is cached, so filtering it once suffices. */
  private readonly listedBySource = new WeakMap<ProviderCurrency[], ProviderCurrency[]>();

  constructor(private readonly router: LiquidityRouter) {}

  async currencies(livemode: boolean): Promise<ProviderCurrency[]> {
    const all = (await this.router.catalogue(livemode)).currencies;
    let listed = this.listedBySource.get(all);
    if (!listed) {
      listed = all.filter((c) => c.extraIdName === null);
      this.listedBySource.set(all, listed);
    }
    return listed;
  }

  /** Resolves one ticker; unknown and memo currencies answer `pair_unsupported`. */
  async currency(livemode: boolean, raw: string): Promise<ProviderCurrency> {
    return known(resolveCurrency(raw, await this.currencies(livemode)), raw);
  }

  async pair(livemode: boolean, rawFrom: string, rawTo: string): Promise<ResolvedPair> {
    const currencies = await this.currencies(livemode);
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
    const offers = await this.router.offers(livemode, from.ticker, to.ticker);
    if (offers.length === 0) {
      throw pairUnsupported();
    }
    return { livemode, from, to, params: widest(from.ticker, to.ticker, offers), offers };
  }
}

/** The bounds partners see: per flow, the lowest minimum and the highest maximum on offer. */
function widest(from: string, to: string, offers: readonly PairOffer[]): ProviderPairParams {
  const fixedOffers = offers.filter((o) => o.fixed);
  const bounds = (flow: SwapMode, of: readonly PairOffer[]) =>
    unionBounds(of.map((o) => flowBounds(o.params, flow)));
  const float = bounds('float', offers);
  const fixed = bounds('fixed', fixedOffers.length > 0 ? fixedOffers : offers);
  return {
    from,
    to,
    minAmountFloat: float.min,
    maxAmountFloat: float.max,
    minAmountFixed: fixed.min,
    maxAmountFixed: fixed.max,
  };
}
