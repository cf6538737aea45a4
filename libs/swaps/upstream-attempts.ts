import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Decimal } from 'decimal.js';
import {
  LIQUIDITY_PROVIDER,
  ProviderError,
  type LiquidityProvider,
  type ProviderTransaction,
} from '#app/provider';
import type { CreateSwapInput } from './create-swap.input.js';
import { IdempotencyRepository, type UpstreamAttempt } from './idempotency.repository.js';
import type { Pricing } from './swap-pricing.js';
import { SwapsRepository } from './swaps.repository.js';

/** A lookup reads the payout address's transactions from a minute before the attempt began. */
const RECONCILE_CLOCK_SKEW_MS = 60_000;
const RECONCILE_PAGE = 100;

/**
 * The create calls of a key and their lost answers (docs/decisions.md, "Lost upstream answers").
 * An attempt is written to the key before the call, with a marker the call carries; a definite
 * refusal settles it; any other failure leaves it for the next retry, which looks the
 * transaction up by that marker before anything else goes upstream.
 */
@Injectable()
export class UpstreamAttempts {
  private readonly logger = new Logger(UpstreamAttempts.name);

  constructor(
    private readonly idempotency: IdempotencyRepository,
    private readonly swaps: SwapsRepository,
    @Inject(LIQUIDITY_PROVIDER) private readonly provider: LiquidityProvider,
  ) {}

  /** Records the attempt on the key, then creates the transaction upstream. */
  async create(
    reservationId: string,
    pricing: Pricing,
    input: CreateSwapInput,
    context: { swapId: string; orgId: string },
  ): Promise<ProviderTransaction> {
    const attempt: UpstreamAttempt = {
      from: pricing.pair.from.ticker,
      to: pricing.pair.to.ticker,
      amountFrom: pricing.amountFrom,
      address: input.address,
      startedAt: new Date().toISOString(),
      marker: randomBytes(12).toString('hex'),
      fixedRateId: pricing.fixedRate?.id ?? null,
    };
    await this.idempotency.recordAttempt(reservationId, attempt);
    const started = performance.now();
    const transaction = await this.send(pricing, input, attempt).catch(async (error: unknown) => {
      // The provider said no: nothing was created, so the attempt is settled.
      if (isDefiniteRejection(error)) {
        await this.settled(reservationId);
      }
      throw error;
    });
    this.logger.log(
      { ...context, latencyMs: Math.round(performance.now() - started) },
      'upstream transaction created',
    );
    return transaction;
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
  async find(attempt: UpstreamAttempt, livemode: boolean): Promise<ProviderTransaction | null> {
    const since = new Date(Date.parse(attempt.startedAt) - RECONCILE_CLOCK_SKEW_MS).toISOString();
    for (let offset = 0; ; offset += RECONCILE_PAGE) {
      const page = await this.provider.getTransactions({
        payoutAddress: attempt.address,
        since,
        limit: RECONCILE_PAGE,
        offset,
      });
      for (const tx of page) {
        if (madeBy(attempt, tx) && !(await this.swaps.isHeld(tx.id, livemode))) {
          return tx;
        }
      }
      if (page.length < RECONCILE_PAGE) {
        return null;
      }
    }
  }

  private send(
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
      ? this.provider.createFixedTransaction({
          ...request,
          rateId: pricing.fixedRate.providerRateId,
          refundAddress: input.refundAddress ?? '',
        })
      : this.provider.createTransaction({
          ...request,
          ...(input.refundAddress !== undefined ? { refundAddress: input.refundAddress } : {}),
        });
  }
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
