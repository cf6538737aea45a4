import { randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { Decimal } from 'decimal.js';
import { applyFee, netOfNetworkFee, type ProviderName } from '#app/domain';
import type { AuthenticatedPartner } from '#app/partners';
import { ProviderError, type LiquidityProvider, type ProviderTransaction } from '#app/provider';
import { LiquidityRouter, mayFailOver, type PairOffer } from '#app/routing';
import type { CreateSwapInput } from './create-swap.input.js';
import { IdempotencyRepository, type UpstreamAttempt } from './idempotency.repository.js';
import type { Pricing } from './swap-pricing.js';
import { SwapsRepository } from './swaps.repository.js';

/** A lookup reads the payout address's transactions from a minute before the attempt began. */
const RECONCILE_CLOCK_SKEW_MS = 60_000;
const RECONCILE_PAGE = 100;
/** No further provider is tried once a creation has run this long: the partner is waiting. */
const FAILOVER_WINDOW_MS = 15_000;

/** What a creation made upstream, and where. */
export interface UpstreamTransaction {
  provider: ProviderName;
  tx: ProviderTransaction;
}

/**
 * The create calls of a key and their lost answers (docs/decisions.md, "Lost upstream answers",
 * "Liquidity routing across providers"). An attempt is written to the key before each call, with
 * the provider and a marker the call carries; a refusal that proves nothing was made settles it
 * (and, when the refusal is the provider's own, the next-best provider is tried); any other
 * failure leaves it for the next retry, which looks the transaction up at that provider by that
 * marker before anything else goes upstream. A swap is never created at two providers.
 */
@Injectable()
export class UpstreamAttempts {
  private readonly logger = new Logger(UpstreamAttempts.name);

  constructor(
    private readonly idempotency: IdempotencyRepository,
    private readonly swaps: SwapsRepository,
    private readonly router: LiquidityRouter,
  ) {}

  /**
   * Creates the transaction upstream: a fixed swap at its rate's provider only; a float swap at
   * the best provider on offer, moving on to the next only after a refusal that proves nothing
   * was made there and is not about the partner's input.
   */
  async create(
    reservationId: string,
    pricing: Pricing,
    input: CreateSwapInput,
    partner: AuthenticatedPartner,
    swapId: string,
  ): Promise<UpstreamTransaction> {
    const { livemode } = partner;
    const started = performance.now();
    const order = pricing.fixedRate
      ? [this.router.provider(pricing.fixedRate.provider, livemode)]
      : (await this.creationOrder(pricing, partner)).map((offer) => offer.provider);
    for (let i = 0; ; i += 1) {
      const provider = order[i];
      const attempt: UpstreamAttempt = {
        provider: provider.name,
        from: pricing.pair.from.ticker,
        to: pricing.pair.to.ticker,
        amountFrom: pricing.amountFrom,
        address: input.address,
        startedAt: new Date().toISOString(),
        marker: randomBytes(12).toString('hex'),
        fixedRateId: pricing.fixedRate?.id ?? null,
      };
      await this.idempotency.recordAttempt(reservationId, attempt);
      try {
        const tx = await this.router.create(provider, livemode, () =>
          this.send(provider, pricing, input, attempt),
        );
        this.logger.log(
          {
            swapId,
            orgId: partner.organizationId,
            provider: provider.name,
            latencyMs: Math.round(performance.now() - started),
          },
          'upstream transaction created',
        );
        return { provider: provider.name, tx };
      } catch (error: unknown) {
        // The provider said no, or the call never left: nothing was created there.
        if (isDefiniteRejection(error)) {
          await this.settled(reservationId);
        }
        const next = order[i + 1];
        if (!next || !mayFailOver(error) || performance.now() - started > FAILOVER_WINDOW_MS) {
          throw error;
        }
        this.logger.warn(
          {
            swapId,
            orgId: partner.organizationId,
            provider: provider.name,
            next: next.name,
            code: error instanceof ProviderError ? error.code : undefined,
          },
          'provider refused the swap before making anything; trying the next',
        );
      }
    }
  }

  /** The providers a float swap is offered to, best first for this partner's user. */
  private creationOrder(pricing: Pricing, partner: AuthenticatedPartner): Promise<PairOffer[]> {
    const { pair, amountFrom } = pricing;
    const request = { from: pair.from.ticker, to: pair.to.ticker, amountFrom };
    return this.router.creationOrder({
      livemode: partner.livemode,
      offers: pair.offers,
      ...request,
      flow: 'float',
      ask: (provider) => provider.getFloatQuote(request),
      receives: (quote) =>
        new Decimal(
          netOfNetworkFee(
            applyFee(quote.amountTo, partner.feePercent, pair.to.blockchainPrecision),
            quote.networkFee,
          ),
        ),
    });
  }

  /** A lookup or the provider proved the attempt created nothing: the key may create afresh. */
  settled(reservationId: string): Promise<void> {
    return this.idempotency.clearAttempt(reservationId);
  }

  /**
   * Looks for the transaction an attempt may have created: the payout address's transactions
   * since the attempt started, page by page, the one carrying the attempt's marker (or, from a
   * provider that does not report markers, the same pair and amount) that no swap holds yet.
   * Null only when the provider answered every page: then nothing was created.
   */
  async find(attempt: UpstreamAttempt, livemode: boolean): Promise<UpstreamTransaction | null> {
    const provider = this.router.provider(attemptProvider(attempt), livemode);
    const since = new Date(Date.parse(attempt.startedAt) - RECONCILE_CLOCK_SKEW_MS).toISOString();
    for (let offset = 0; ; offset += RECONCILE_PAGE) {
      const page = await provider.getTransactions({
        payoutAddress: attempt.address,
        since,
        limit: RECONCILE_PAGE,
        offset,
      });
      for (const tx of page) {
        if (madeBy(attempt, tx) && !(await this.swaps.isHeld(provider.name, tx.id, livemode))) {
          return { provider: provider.name, tx };
        }
      }
      if (page.length < RECONCILE_PAGE) {
        return null;
      }
    }
  }

  private send(
    provider: LiquidityProvider,
    pricing: Pricing,
    input: CreateSwapInput,
    attempt: UpstreamAttempt,
  ): Promise<ProviderTransaction> {
    const request = {
      from: attempt.from,
      to: attempt.to,
      amountFrom: attempt.amountFrom,
      address: attempt.address,
      userMetadata: markerOf(attempt),
    };
    return pricing.fixedRate
      ? provider.createFixedTransaction({
          ...request,
          rateId: pricing.fixedRate.providerRateId,
          refundAddress: input.refundAddress ?? '',
        })
      : provider.createTransaction({
          ...request,
          ...(input.refundAddress !== undefined ? { refundAddress: input.refundAddress } : {}),
        });
  }
}

/** Attempts recorded before routing name no provider: they were all made at Changelly. */
function attemptProvider(attempt: UpstreamAttempt): ProviderName {
  return attempt.provider ?? 'changelly';
}

/** What the attempt sends as `userMetadata`, to know its transaction again. */
function markerOf(attempt: UpstreamAttempt): string {
  return `attempt:${attempt.marker}`;
}

/** Whether `tx` is the one `attempt` created (docs/decisions.md, "Lost upstream answers"). */
function madeBy(attempt: UpstreamAttempt, tx: ProviderTransaction): boolean {
  if (tx.userMetadata !== null) {
    return tx.userMetadata === markerOf(attempt);
  }
  return (
    tx.from === attempt.from &&
    tx.to === attempt.to &&
    new Decimal(tx.amountExpectedFrom).eq(attempt.amountFrom)
  );
}

/**
 * The call proved that nothing was created: it never reached the provider (a refused connection,
 * our own budget refusing) or the provider answered with a definite refusal. A timeout, a cut
 * connection, a 5xx, an unreadable answer or an internal error may have created the transaction
 * all the same (docs/decisions.md, "Which failures prove nothing was made").
 */
function isDefiniteRejection(error: unknown): boolean {
  return error instanceof ProviderError && error.delivery !== 'unknown';
}
