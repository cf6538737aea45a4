import { randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { Decimal } from 'decimal.js';
import { InjectConfig, QUOTES_CONFIG, type QuotesConfig } from '#app/config';
import { applyFee, netOfNetworkFee, type SwapMode } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import {
  assertWithinBounds,
  CatalogueService,
  parseAmount,
  type ResolvedPair,
} from '#app/catalogue';
import { OnboardingService } from '#app/partners';
import type { LiquidityProvider, ProviderFixedQuote, ProviderFloatQuote } from '#app/provider';
import { LiquidityRouter, type ProviderOffer } from '#app/routing';
import { FixedRatesRepository } from './fixed-rates.repository.js';
import type { Quote, QuoteRequestInput, QuotingParty } from './quote.js';

/** A quote and the pair it was made for (swap creation needs both). */
export interface PricedQuote {
  quote: Quote;
  pair: ResolvedPair;
}

/**
 * Float and fixed quotes for partners, routed across the providers (docs/decisions.md, "Liquidity
 * routing across providers"); fixed rate ids are recorded, bound to their provider, so swaps can
 * redeem them once and only there.
 */
@Injectable()
export class QuotesService {
  private readonly logger = new Logger(QuotesService.name);

  constructor(
    private readonly catalogue: CatalogueService,
    private readonly fixedRates: FixedRatesRepository,
    private readonly router: LiquidityRouter,
    private readonly onboarding: OnboardingService,
    @InjectConfig(QUOTES_CONFIG) private readonly options: QuotesConfig,
  ) {}

  async quote(party: QuotingParty, input: QuoteRequestInput): Promise<PricedQuote> {
    const pair = await this.catalogue.pair(party.livemode, input.from, input.to);
    const mode: SwapMode = input.mode ?? 'float';
    const amountFrom = parseAmount(input.amountFrom, pair.from.blockchainPrecision, 'amountFrom');
    const { min, max } = this.bounds(pair, mode);
    assertWithinBounds(amountFrom, min, max, pair.from.ticker);
    const quote =
      mode === 'fixed'
        ? await this.fixedQuote(party, pair, amountFrom, min, max)
        : await this.floatQuote(party, pair, amountFrom, min, max);
    if (!party.livemode) {
      await this.onboarding.testQuoteAnswered(party.organizationId);
    }
    return { quote, pair };
  }

  private bounds(pair: ResolvedPair, mode: SwapMode): { min: string; max: string } {
    if (mode === 'fixed') {
      if (!pair.from.fixRateEnabled || !pair.to.fixRateEnabled) {
        throw new AppError(
          ErrorCode.PairUnsupported,
          'Fixed rates are not available for this pair.',
          {
            param: 'pair',
          },
        );
      }
      return { min: pair.params.minAmountFixed, max: pair.params.maxAmountFixed };
    }
    return { min: pair.params.minAmountFloat, max: pair.params.maxAmountFloat };
  }

  private async floatQuote(
    party: QuotingParty,
    pair: ResolvedPair,
    amountFrom: string,
    min: string,
    max: string,
  ): Promise<Quote> {
    const { quote: upstream } = await this.best(party, pair, amountFrom, 'float', (provider) =>
      provider.getFloatQuote(this.request(pair, amountFrom)),
    );
    return {
      ...this.priced(party, pair, amountFrom, upstream),
      fee: upstream.fee,
      min,
      max,
      mode: 'float',
      rateId: null,
      expiresAt: null,
    };
  }

  private async fixedQuote(
    party: QuotingParty,
    pair: ResolvedPair,
    amountFrom: string,
    min: string,
    max: string,
  ): Promise<Quote> {
    const { offer, quote: upstream } = await this.best(
      party,
      pair,
      amountFrom,
      'fixed',
      (provider) => provider.getFixedQuote(this.request(pair, amountFrom)),
    );
    const priced = this.priced(party, pair, amountFrom, upstream);
    const ttlEnd = Date.now() + this.options.fixedRateTtlSeconds * 1000;
    const expiresAt = new Date(Math.min(ttlEnd, Date.parse(upstream.expiresAt)));
    const rate = await this.fixedRates.record({
      id: randomBytes(16).toString('hex'),
      provider: offer.provider.name,
      providerRateId: upstream.rateId,
      organizationId: party.organizationId,
      livemode: party.livemode,
      from: priced.from,
      to: priced.to,
      amountFrom,
      amountTo: priced.amountTo,
      networkFee: priced.networkFee,
      rate: priced.rate,
      expiresAt,
    });
    this.logger.log(
      { orgId: party.organizationId, rateId: rate.id, provider: rate.provider, expiresAt },
      'fixed rate issued',
    );
    return {
      ...priced,
      fee: null,
      min,
      max,
      mode: 'fixed',
      rateId: rate.id,
      expiresAt: expiresAt.toISOString(),
    };
  }

  /** The best quote on offer: what the user receives, after this party's fee and the network fee. */
  private async best<Q extends ProviderFloatQuote | ProviderFixedQuote>(
    party: QuotingParty,
    pair: ResolvedPair,
    amountFrom: string,
    flow: SwapMode,
    ask: (provider: LiquidityProvider) => Promise<Q>,
  ): Promise<ProviderOffer<Q>> {
    const [best] = await this.router.quote({
      livemode: party.livemode,
      offers: pair.offers,
      from: pair.from.ticker,
      to: pair.to.ticker,
      amountFrom,
      flow,
      ask,
      receives: (quote) =>
        new Decimal(this.priced(party, pair, amountFrom, quote).amountUserReceives),
    });
    return best.value;
  }

  private request(
    pair: ResolvedPair,
    amountFrom: string,
  ): { from: string; to: string; amountFrom: string } {
    return { from: pair.from.ticker, to: pair.to.ticker, amountFrom };
  }

  /** The amounts every quote shares: the org's fee off `amountTo`, then the network fee. */
  private priced(
    party: QuotingParty,
    pair: ResolvedPair,
    amountFrom: string,
    upstream: { amountTo: string; networkFee: string; rate: string },
  ): Pick<
    Quote,
    'from' | 'to' | 'amountFrom' | 'amountTo' | 'networkFee' | 'amountUserReceives' | 'rate'
  > {
    const amountTo = applyFee(upstream.amountTo, party.feePercent, pair.to.blockchainPrecision);
    return {
      from: pair.from.ticker,
      to: pair.to.ticker,
      amountFrom,
      amountTo,
      networkFee: upstream.networkFee,
      amountUserReceives: netOfNetworkFee(amountTo, upstream.networkFee),
      rate: upstream.rate,
    };
  }
}
