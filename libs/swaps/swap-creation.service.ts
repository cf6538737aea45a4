import { Injectable, Logger } from '@nestjs/common';
import { AppError, ErrorCode } from '#app/errors';
import type { AuthenticatedPartner } from '#app/partners';
import { ProviderError } from '#app/provider';
import type { CreatedSwap, CreateSwapInput } from './create-swap.input.js';
import type { UpstreamAttempt } from './idempotency.repository.js';
import { bodyFingerprint, parseIdempotencyKey } from './idempotency-key.js';
import { KeyReservations, type AcquiredKey } from './key-reservations.js';
import { newSwapId } from './swap-id.js';
import { SwapPersistence } from './swap-persistence.js';
import { assertModeFields, SwapPricing } from './swap-pricing.js';
import type { SwapView } from './swap.view.js';
import { UpstreamAttempts } from './upstream-attempts.js';

const NOT_PROCESSABLE = /not processable|cannot be (processed|routed)/i;

/**
 * `POST /v1/swaps` (spec rules 1–12, docs/decisions.md, "Idempotency keys" and "Fixed rate ids"),
 * in the order its parts run: the key is claimed in Postgres before anything goes upstream
 * (`KeyReservations`); a lost answer of the key's last attempt is reconciled through the provider
 * before another create is allowed (`UpstreamAttempts`); the request is priced and checked
 * (`SwapPricing`); the upstream call runs outside any transaction; what it created is stored with
 * its event and the completed key (`SwapPersistence`).
 */
@Injectable()
export class SwapCreationService {
  private readonly logger = new Logger(SwapCreationService.name);

  constructor(
    private readonly keys: KeyReservations,
    private readonly attempts: UpstreamAttempts,
    private readonly pricing: SwapPricing,
    private readonly persistence: SwapPersistence,
  ) {}

  async create(
    partner: AuthenticatedPartner,
    idempotencyKey: string | string[] | undefined,
    input: CreateSwapInput,
  ): Promise<CreatedSwap<SwapView>> {
    const key = parseIdempotencyKey(idempotencyKey);
    assertModeFields(input);
    const fingerprint = bodyFingerprint(input);
    const claim = await this.keys.claim(partner.credentialId, key, fingerprint);
    if (claim.outcome === 'replay') {
      const swap = claim.response ?? (await this.persistence.find(claim.swapId, partner));
      return { swap, replayed: true };
    }
    let swap: SwapView;
    try {
      swap = await this.createOnce(partner, key, input, claim.id, claim.previousAttempt);
    } catch (error: unknown) {
      throw await this.afterFailure(claim, error);
    }
    await this.keys.completed(claim, swap);
    return { swap, replayed: false };
  }

  /**
   * An unresolved attempt of this key is settled first, by a lookup and before any other upstream
   * call: found, its transaction becomes the swap; proven absent, the key creates afresh.
   */
  private async createOnce(
    partner: AuthenticatedPartner,
    key: string,
    input: CreateSwapInput,
    reservationId: string,
    unresolved: UpstreamAttempt | null,
  ): Promise<SwapView> {
    const created = { partner, key, reservationId, input };
    if (unresolved) {
      const found = await this.attempts.find(unresolved, partner.livemode);
      if (found) {
        this.logger.warn(
          { orgId: partner.organizationId, provider: found.provider, providerId: found.tx.id },
          'reconciled a lost upstream answer',
        );
        const pricing = await this.pricing.termsOf(partner, unresolved);
        return this.persistence.store({ ...created, pricing, made: found, swapId: newSwapId() });
      }
      await this.attempts.settled(reservationId);
    }
    const pricing = await this.pricing.price(partner, input);
    const swapId = newSwapId();
    await this.pricing.spend(pricing, partner, swapId);
    const made = await this.attempts.create(reservationId, pricing, input, partner, swapId);
    return this.persistence.store({ ...created, pricing, made, swapId });
  }

  /**
   * What a failure is answered with. While the key holds an attempt that may have reached the
   * provider (a lost answer, a failed lookup, a store that failed after the provider answered),
   * it stays for the next retry to settle: a failed create call is answered as it is, any other
   * failure with 503 (retry, same key). Otherwise the key was given back and the failure is
   * answered as it is.
   */
  private async afterFailure(claim: AcquiredKey, error: unknown): Promise<unknown> {
    if (!(await this.keys.keepForRetry(claim))) {
      return translateCreateError(error);
    }
    this.logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'creation failed with an attempt unsettled; kept for the retry',
    );
    // The create call's own failure keeps its code (spec: 502 upstream_bad_response, …).
    if (error instanceof ProviderError && error.method.startsWith('create')) {
      return error;
    }
    return new AppError(
      ErrorCode.UpstreamUnavailable,
      'The liquidity provider did not confirm this swap. Retry with the same Idempotency-Key; it will not be created twice.',
      { cause: error },
    );
  }
}

/** Spec rule 10: an unroutable swap is 422 with the provider's message verbatim. */
function translateCreateError(error: unknown): unknown {
  if (
    error instanceof ProviderError &&
    error.code === ErrorCode.InvalidRequest &&
    error.upstreamMessage !== null &&
    NOT_PROCESSABLE.test(error.upstreamMessage)
  ) {
    return new AppError(ErrorCode.ExchangeNotProcessable, error.upstreamMessage, {
      upstreamCode: error.upstreamCode,
    });
  }
  return error;
}
