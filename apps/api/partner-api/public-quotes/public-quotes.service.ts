import { Inject, Injectable } from '@nestjs/common';
import { Decimal } from 'decimal.js';
import { LRUCache } from 'lru-cache';
import { applyFee, netOfNetworkFee } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { CatalogueService, parseAmount, type ResolvedPair } from '#app/catalogue';
import { KEY_VALUE_STORE, TieredCache, type KeyValueStore } from '#app/redis';
import { LiquidityRouter } from '#app/routing';
import type { PublicQuoteResponse } from './dto/public-quote.response.js';

/** The standard service fee built into public prices (docs/decisions.md, "Public quote"). */
export const STANDARD_FEE_PERCENT = '1';
const REFERENCE_TTL_MS = 10_000;
const FEE_NOTE = `The rate includes the standard ${STANDARD_FEE_PERCENT}% service fee. The network fee is shown separately.`;

/** The public quote documents one upstream failure: 503, temporarily unavailable. */
function asTemporarilyUnavailable(error: unknown): unknown {
  if (error instanceof AppError && error.type === 'upstream_error' && error.status !== 503) {
    return new AppError(ErrorCode.UpstreamUnavailable, 'Prices are temporarily unavailable.', {
      cause: error,
    });
  }
  return error;
}

/** What one upstream float quote per pair and 10 s tells about every amount. */
interface PairReference {
  /** Payout per unit sent, net of the provider fee. */
  unitRate: string;
  rate: string;
  networkFee: string;
}

/** An amount as one reference prices it. */
interface PricedAmount {
  reference: PairReference;
  amountFrom: string;
  amountTo: string;
  amountUserReceives: string;
}

/** Distinct pair-and-amount prices kept: enough for every price a page shows, bounded for any. */
const PRICES_KEPT = 1_000;

/**
 * Anonymous price display. Prices come from a per-pair reference refreshed at most every 10 s
 * (shared through the store), so anonymous traffic never spends the upstream budget per request.
 */
@Injectable()
export class PublicQuotesService {
  /** In process until the shared entry expires, so no reference is older than 10 s. */
  private readonly references: TieredCache;
  /** Each asked amount as the pair's current reference prices it, worked out once per reference. */
  private readonly prices = new LRUCache<string, PricedAmount>({ max: PRICES_KEPT });

  constructor(
    private readonly catalogue: CatalogueService,
    private readonly router: LiquidityRouter,
    @Inject(KEY_VALUE_STORE) store: KeyValueStore,
  ) {
    this.references = new TieredCache(store, { namespace: 'public-quote' });
  }

  /** Anonymous prices are live prices: no credential names a mode. */
  async quote(
    from: string,
    to: string,
    rawAmount: string | undefined,
  ): Promise<PublicQuoteResponse> {
    const pair = await this.catalogue.pair(true, from, to);
    const raw = rawAmount ?? '1';
    const key = `${pair.from.ticker}/${pair.from.blockchainPrecision}:${pair.to.ticker}/${pair.to.blockchainPrecision}:${raw}`;
    const kept = this.prices.get(key);
    // Before the reference is fetched: a malformed amount never reaches the provider.
    const amountFrom =
      kept?.amountFrom ?? parseAmount(raw, pair.from.blockchainPrecision, 'amount');
    const reference = await this.references.get(
      `${pair.from.ticker}:${pair.to.ticker}`,
      REFERENCE_TTL_MS,
      () => this.fetchReference(pair),
    );
    const priced =
      kept?.reference === reference ? kept : this.price(key, amountFrom, reference, pair);
    return {
      quote: {
        from: pair.from.ticker,
        to: pair.to.ticker,
        amountFrom,
        amountTo: priced.amountTo,
        networkFee: reference.networkFee,
        amountUserReceives: priced.amountUserReceives,
        rate: reference.rate,
        min: pair.params.minAmountFloat,
        max: pair.params.maxAmountFloat,
        rateType: 'float',
        feeNote: FEE_NOTE,
      },
    };
  }

  private price(
    key: string,
    amountFrom: string,
    reference: PairReference,
    pair: ResolvedPair,
  ): PricedAmount {
    const amountTo = applyFee(
      new Decimal(amountFrom).mul(reference.unitRate).toFixed(),
      STANDARD_FEE_PERCENT,
      pair.to.blockchainPrecision,
    );
    const priced = {
      reference,
      amountFrom,
      amountTo,
      amountUserReceives: netOfNetworkFee(amountTo, reference.networkFee),
    };
    this.prices.set(key, priced);
    return priced;
  }

  private async fetchReference(pair: ResolvedPair): Promise<PairReference> {
    const { minAmountFloat, maxAmountFloat } = pair.params;
    const amountFrom = Decimal.min(new Decimal(minAmountFloat).mul(10), maxAmountFloat)
      .toDecimalPlaces(pair.from.blockchainPrecision, Decimal.ROUND_DOWN)
      .toFixed();
    const request = { from: pair.from.ticker, to: pair.to.ticker, amountFrom };
    const [best] = await this.router
      .quote({
        livemode: true,
        offers: pair.offers,
        ...request,
        flow: 'float',
        ask: (provider) => provider.getFloatQuote(request),
        receives: (quote) => new Decimal(quote.amountTo).minus(quote.networkFee),
      })
      .catch((error: unknown) => {
        throw asTemporarilyUnavailable(error);
      });
    const upstream = best.value.quote;
    return {
      unitRate: new Decimal(upstream.amountTo).div(upstream.amountFrom).toFixed(),
      rate: upstream.rate,
      networkFee: upstream.networkFee,
    };
  }
}
