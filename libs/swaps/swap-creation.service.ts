import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Decimal } from 'decimal.js';
import { DataSource } from 'typeorm';
import { applyFee, netOfNetworkFee, type OwnerScope } from '#app/domain';
import {
  assertWithinBounds,
  CatalogueService,
  parseAmount,
  type ResolvedPair,
} from '#app/catalogue';
import { CHAIN_NAMES, isChain, validateAddress } from '#app/chains';
import { AppError, ErrorCode } from '#app/errors';
import { EventRecorder } from '#app/events';
import type { AuthenticatedPartner } from '#app/partners';
import type { FixedRateEntity, SwapEntity } from '#app/persistence';
import {
  LIQUIDITY_PROVIDER,
  ProviderError,
  type LiquidityProvider,
  type ProviderTransaction,
} from '#app/provider';
import { FixedRatesRepository } from '#app/quotes';
import { PARTNER_MAX_GATE_WAIT_MS } from '#app/rate-limit';
import type { CreatedSwap, CreateSwapInput } from './create-swap.input.js';
import {
  IdempotencyRepository,
  type Reservation,
  type UpstreamAttempt,
} from './idempotency.repository.js';
import { bodyFingerprint, parseIdempotencyKey } from './idempotency-key.js';
import { newSwapId } from './swap-id.js';
import { buildSwap } from './swap.factory.js';
import { toSwapView, viewOfRow, type SwapView } from './swap.view.js';
import { SwapsRepository } from './swaps.repository.js';

export interface SwapCreationOptions {
  /** `PROVIDER_TIMEOUT_MS`: the longest one upstream call may take. */
  providerTimeoutMs: number;
}

export const SWAP_CREATION_OPTIONS = Symbol('SWAP_CREATION_OPTIONS');

/** Upstream calls one creation may make in a row: the lookup of a lost answer, pair limits, create. */
const MAX_UPSTREAM_CALLS_PER_CREATION = 3;
/** Database round trips and scheduling around them. */
const KEY_LOCK_MARGIN_MS = 5_000;

/**
 * How long one creation attempt holds its key: longer than the slowest run of its upstream calls
 * (each may first wait for the shared budget, then take up to the timeout), so a concurrent retry
 * can never start a second creation while the first may still reach the provider.
 */
export function keyLockMs(providerTimeoutMs: number): number {
  return (
    MAX_UPSTREAM_CALLS_PER_CREATION * (providerTimeoutMs + PARTNER_MAX_GATE_WAIT_MS) +
    KEY_LOCK_MARGIN_MS
  );
}
/**
 * How long a concurrent duplicate waits for the first request to finish (docs/decisions.md,
 * "Idempotency keys").
 */
const DUPLICATE_WAIT_MS = 10_000;
const DUPLICATE_POLL_MS = 100;
const NOT_PROCESSABLE = /not processable|cannot be (processed|routed)/i;
/** A lookup reads the payout address's transactions from a minute before the attempt began. */
const RECONCILE_CLOCK_SKEW_MS = 60_000;
const RECONCILE_PAGE = 100;

/** What the service needs to persist a swap the provider created. */
interface Pricing {
  pair: ResolvedPair;
  amountFrom: string;
  fixedRate: FixedRateEntity | null;
}

/**
 * `POST /v1/swaps` (spec rules 1–12, docs/decisions.md, "Idempotency keys" and "Fixed rate ids").
 * The key is claimed in Postgres before anything goes upstream; the upstream call runs outside any
 * transaction; a lost answer is reconciled through the provider before another create is allowed
 * for the key.
 */
@Injectable()
export class SwapCreationService {
  private readonly logger = new Logger(SwapCreationService.name);

  constructor(
    private readonly catalogue: CatalogueService,
    private readonly fixedRates: FixedRatesRepository,
    private readonly idempotency: IdempotencyRepository,
    private readonly swaps: SwapsRepository,
    private readonly events: EventRecorder,
    @Inject(LIQUIDITY_PROVIDER) private readonly provider: LiquidityProvider,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(SWAP_CREATION_OPTIONS) private readonly options: SwapCreationOptions,
  ) {}

  async create(
    partner: AuthenticatedPartner,
    idempotencyKey: string | string[] | undefined,
    input: CreateSwapInput,
  ): Promise<CreatedSwap<SwapView>> {
    const key = parseIdempotencyKey(idempotencyKey);
    assertModeFields(input);
    const fingerprint = bodyFingerprint(input);
    // Retries are the common case: a completed key and its swap answer them in one read.
    const completed = await this.swaps.findCompletedKeySwap(partner.credentialId, key, partner);
    if (completed?.swap && completed.fingerprint === fingerprint) {
      return { swap: viewOfRow(completed.swap), replayed: true };
    }
    const reservation = await this.reserve(partner.credentialId, key, fingerprint);
    if (reservation.outcome === 'replay') {
      return {
        swap: await this.stored(reservation.swapId, partner),
        replayed: true,
      };
    }
    try {
      const swap = await this.createOnce(
        partner,
        key,
        input,
        reservation.id,
        reservation.previousAttempt,
      );
      return { swap: toSwapView(swap), replayed: false };
    } catch (error: unknown) {
      throw await this.afterFailure(reservation.id, error);
    }
  }

  private async reserve(
    credentialId: string,
    key: string,
    fingerprint: string,
  ): Promise<Extract<Reservation, { outcome: 'acquired' | 'replay' }>> {
    const deadline = Date.now() + DUPLICATE_WAIT_MS;
    for (;;) {
      const reservation = await this.idempotency.reserve(
        credentialId,
        key,
        fingerprint,
        keyLockMs(this.options.providerTimeoutMs),
      );
      switch (reservation.outcome) {
        case 'acquired':
        case 'replay':
          return reservation;
        case 'mismatch':
          throw new AppError(
            ErrorCode.IdempotencyKeyMismatch,
            'This Idempotency-Key was used with a different request body. Use a new key.',
            { param: 'Idempotency-Key' },
          );
        case 'busy':
          if (Date.now() >= deadline) {
            throw new AppError(
              ErrorCode.IdempotencyKeyInUse,
              'A request with this Idempotency-Key is still in progress. Retry shortly with the same key.',
              { param: 'Idempotency-Key' },
            );
          }
          await sleep(DUPLICATE_POLL_MS);
      }
    }
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
  ): Promise<SwapEntity> {
    if (unresolved) {
      const found = await this.reconcile(unresolved, partner.livemode);
      if (found) {
        this.logger.warn(
          { orgId: partner.organizationId, providerId: found.id },
          'reconciled a lost upstream answer',
        );
        const pricing = await this.pricingOf(partner, unresolved);
        return this.persist(partner, key, input, pricing, found, reservationId, newSwapId());
      }
      await this.idempotency.clearAttempt(reservationId);
    }
    const pricing = await this.price(partner, input);
    const swapId = newSwapId();
    if (
      pricing.fixedRate &&
      !(await this.fixedRates.consume(pricing.fixedRate.id, partner, swapId))
    ) {
      throw rateExpired();
    }
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
    const transaction = await this.createUpstream(pricing, input, attempt).catch(
      async (error: unknown) => {
        // The provider said no: nothing was created, so the attempt is settled.
        if (isDefiniteRejection(error)) {
          await this.idempotency.clearAttempt(reservationId);
        }
        throw error;
      },
    );
    this.logger.log(
      { swapId, orgId: partner.organizationId, latencyMs: Math.round(performance.now() - started) },
      'upstream transaction created',
    );
    return this.persist(partner, key, input, pricing, transaction, reservationId, swapId);
  }

  private createUpstream(
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

  /** The terms an attempt was made on, to store the transaction a lookup found for it. */
  private async pricingOf(
    partner: AuthenticatedPartner,
    attempt: UpstreamAttempt,
  ): Promise<Pricing> {
    const pair = await this.catalogue.pair(attempt.from, attempt.to);
    const fixedRate = attempt.fixedRateId
      ? await this.fixedRates.findForOwner(attempt.fixedRateId, partner)
      : null;
    return { pair, amountFrom: attempt.amountFrom, fixedRate };
  }

  /** Everything checked before money can move: pair, amount, addresses, the fixed rate. */
  private async price(partner: AuthenticatedPartner, input: CreateSwapInput): Promise<Pricing> {
    const pair = await this.catalogue.pair(input.from, input.to);
    const amountFrom = parseAmount(input.amountFrom, pair.from.blockchainPrecision, 'amountFrom');
    assertStrictAddress(pair.to.blockchain, input.address, 'address');
    if (input.refundAddress !== undefined) {
      assertStrictAddress(pair.from.blockchain, input.refundAddress, 'refundAddress');
    }
    if (input.mode !== 'fixed') {
      assertWithinBounds(
        amountFrom,
        pair.params.minAmountFloat,
        pair.params.maxAmountFloat,
        pair.from.ticker,
      );
      return { pair, amountFrom, fixedRate: null };
    }
    const rate = await this.fixedRates.findForOwner(input.rateId ?? '', partner);
    if (!rate || rate.usedAt !== null || rate.expiresAt.getTime() <= Date.now()) {
      throw rateExpired();
    }
    if (rate.from !== pair.from.ticker || rate.to !== pair.to.ticker) {
      throw new AppError(ErrorCode.InvalidRequest, 'This rateId was quoted for another pair.', {
        param: 'rateId',
      });
    }
    if (!new Decimal(rate.amountFrom).eq(amountFrom)) {
      throw new AppError(
        ErrorCode.InvalidRequest,
        `amountFrom must equal the quoted amount ${rate.amountFrom}.`,
        { param: 'amountFrom' },
      );
    }
    return { pair, amountFrom, fixedRate: rate };
  }

  /**
   * Looks for the transaction an attempt may have created: the payout address's transactions
   * since the attempt started, page by page, the one carrying the attempt's marker (or, from a
   * provider that does not report markers, the same pair and amount) that no swap holds yet.
   * Null only when the provider answered every page: then nothing was created.
   */
  private async reconcile(
    attempt: UpstreamAttempt,
    livemode: boolean,
  ): Promise<ProviderTransaction | null> {
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

  private async persist(
    partner: AuthenticatedPartner,
    key: string,
    input: CreateSwapInput,
    pricing: Pricing,
    tx: ProviderTransaction,
    reservationId: string,
    swapId: string,
  ): Promise<SwapEntity> {
    const networkFee = tx.networkFee ?? pricing.fixedRate?.networkFee ?? '0';
    const amountExpectedTo = pricing.fixedRate
      ? netOfNetworkFee(pricing.fixedRate.amountTo, pricing.fixedRate.networkFee)
      : netOfNetworkFee(
          applyFee(
            new Decimal(tx.amountExpectedTo).plus(networkFee).toFixed(),
            partner.feePercent,
            pricing.pair.to.blockchainPrecision,
          ),
          networkFee,
        );
    const swap = buildSwap({
      id: swapId,
      organizationId: partner.organizationId,
      livemode: partner.livemode,
      credentialId: partner.credentialId,
      idempotencyKey: key,
      providerTransactionId: tx.id,
      status: 'waiting',
      mode: pricing.fixedRate ? 'fixed' : 'float',
      from: pricing.pair.from.ticker,
      to: pricing.pair.to.ticker,
      amountFrom: pricing.amountFrom,
      amountExpectedTo,
      networkFee,
      rate: tx.rate ?? pricing.fixedRate?.rate ?? null,
      payinAddress: tx.payinAddress,
      payoutAddress: input.address,
      refundAddress: input.refundAddress ?? null,
      partnerReferenceId: input.partnerReferenceId ?? null,
      payTill: pricing.fixedRate ? new Date(tx.payTill ?? pricing.fixedRate.expiresAt) : null,
      fixedRateId: pricing.fixedRate?.id ?? null,
      createdAt: new Date(),
    });
    await this.dataSource.transaction(async (manager) => {
      await this.swaps.insert(manager, swap);
      await this.events.swapCreated(manager, swap.organizationId, toSwapView(swap));
      await this.idempotency.complete(manager, reservationId, swap.id);
    });
    this.logger.log(
      { swapId: swap.id, orgId: partner.organizationId, mode: swap.mode },
      'swap created',
    );
    return swap;
  }

  private async stored(swapId: string, owner: OwnerScope): Promise<SwapView> {
    const swap = await this.swaps.findViewByIdForOrg(swapId, owner);
    if (!swap) {
      throw new AppError(ErrorCode.NotFound, 'Swap not found.');
    }
    return viewOfRow(swap);
  }

  /**
   * What a failure does to the key. While it holds an attempt that may have reached the provider
   * (a lost answer, a failed lookup, a store that failed after the provider answered), the
   * attempt stays for the next retry to settle: a failed create call is answered as it is, any
   * other failure with 503 (retry, same key). Any other failure gives the key back and is
   * answered as it is.
   */
  private async afterFailure(reservationId: string, error: unknown): Promise<unknown> {
    if (await this.idempotency.unlockForReconciliation(reservationId)) {
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
    await this.idempotency.release(reservationId);
    return translateCreateError(error);
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
 * The provider answered and created nothing: a JSON-RPC rejection, or our own budget refusing
 * before anything was sent. A timeout, a cut connection, a 5xx, an unreadable answer or an
 * internal error may have created the transaction all the same.
 */
function isDefiniteRejection(error: unknown): boolean {
  if (error instanceof ProviderError) {
    return ![
      ErrorCode.UpstreamUnavailable,
      ErrorCode.UpstreamBadResponse,
      ErrorCode.UpstreamError,
    ].includes(error.code);
  }
  return error instanceof AppError && error.code === ErrorCode.UpstreamRateLimited;
}

function rateExpired(): AppError {
  return new AppError(
    ErrorCode.RateExpired,
    'The fixed rate has expired or was already used. Request a new quote and retry with a new Idempotency-Key.',
    { param: 'rateId' },
  );
}

/** Spec rule 5: checked before anything is stored or sent. */
function assertModeFields(input: CreateSwapInput): void {
  if (input.extraId !== undefined) {
    throw new AppError(
      ErrorCode.InvalidRequest,
      'extraId is not supported: v1 lists no memo currencies.',
      {
        param: 'extraId',
      },
    );
  }
  if (input.mode === 'fixed') {
    if (input.rateId === undefined) {
      throw new AppError(
        ErrorCode.MissingRateId,
        'A fixed swap needs the rateId of a fixed quote.',
        {
          param: 'rateId',
        },
      );
    }
    if (input.refundAddress === undefined) {
      throw new AppError(ErrorCode.MissingRefundAddress, 'A fixed swap needs a refundAddress.', {
        param: 'refundAddress',
      });
    }
  }
}

function assertStrictAddress(blockchain: string, address: string, param: string): void {
  const check = validateAddress(blockchain, address);
  if (!check.valid) {
    const chain = isChain(blockchain) ? CHAIN_NAMES[blockchain] : blockchain;
    throw new AppError(ErrorCode.InvalidAddress, `${param} is not a valid ${chain} address.`, {
      param,
    });
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
