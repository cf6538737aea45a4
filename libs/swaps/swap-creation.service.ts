import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Decimal } from 'decimal.js';
import { DataSource } from 'typeorm';
import { applyFee, netOfNetworkFee } from '#app/domain';
import {
  assertWithinBounds,
  CatalogueService,
  parseAmount,
  type ResolvedPair,
} from '#app/catalogue';
import { CHAIN_NAMES, isChain, validateAddress } from '#app/chains';
import { AppError, ErrorCode } from '#app/errors';
import type { AuthenticatedPartner } from '#app/partners';
import type { FixedRateEntity, SwapEntity } from '#app/persistence';
import {
  LIQUIDITY_PROVIDER,
  PARTNER_MAX_GATE_WAIT_MS,
  ProviderError,
  type LiquidityProvider,
  type ProviderTransaction,
} from '#app/provider';
import { FixedRatesRepository } from '#app/quotes';
import type { CreatedSwap, CreateSwapInput } from './create-swap.input.js';
import {
  IdempotencyRepository,
  type Reservation,
  type UpstreamAttempt,
} from './idempotency.repository.js';
import { bodyFingerprint, parseIdempotencyKey } from './idempotency-key.js';
import { newSwapId } from './swap-id.js';
import { buildSwap } from './swap.factory.js';
import { toSwapView, type SwapView } from './swap.view.js';
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
/** How long a concurrent duplicate waits for the first request to finish (DECISIONS §3.8). */
const DUPLICATE_WAIT_MS = 10_000;
const DUPLICATE_POLL_MS = 100;
const NOT_PROCESSABLE = /not processable|cannot be (processed|routed)/i;

/** What the service needs to persist a swap the provider created. */
interface Pricing {
  pair: ResolvedPair;
  amountFrom: string;
  fixedRate: FixedRateEntity | null;
}

/**
 * `POST /v1/swaps` (spec rules 1–12, DECISIONS §3.8–3.9). The key is claimed in Postgres before
 * anything goes upstream; the upstream call runs outside any transaction; a lost answer is
 * reconciled through the provider before another create is allowed for the key.
 */
@Injectable()
export class SwapCreationService {
  private readonly logger = new Logger(SwapCreationService.name);

  constructor(
    private readonly catalogue: CatalogueService,
    private readonly fixedRates: FixedRatesRepository,
    private readonly idempotency: IdempotencyRepository,
    private readonly swaps: SwapsRepository,
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
    const reservation = await this.reserve(partner.credentialId, key, bodyFingerprint(input));
    if (reservation.outcome === 'replay') {
      return {
        swap: await this.stored(reservation.swapId, partner.organizationId),
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
      await this.afterFailure(reservation.id, error);
      throw translateCreateError(error);
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

  private async createOnce(
    partner: AuthenticatedPartner,
    key: string,
    input: CreateSwapInput,
    reservationId: string,
    previousAttempt: UpstreamAttempt | null,
  ): Promise<SwapEntity> {
    const pricing = await this.price(partner, input);
    if (previousAttempt) {
      const found = await this.reconcile(previousAttempt);
      if (found) {
        this.logger.warn(
          { orgId: partner.organizationId, providerId: found.id },
          'reconciled a lost upstream answer',
        );
        return this.persist(partner, key, input, pricing, found, reservationId, newSwapId());
      }
    }
    const swapId = newSwapId();
    if (
      pricing.fixedRate &&
      !(await this.fixedRates.consume(pricing.fixedRate.id, partner.organizationId, swapId))
    ) {
      throw rateExpired();
    }
    const attempt: UpstreamAttempt = {
      from: pricing.pair.from.ticker,
      to: pricing.pair.to.ticker,
      amountFrom: pricing.amountFrom,
      address: input.address,
      startedAt: new Date().toISOString(),
    };
    await this.idempotency.recordAttempt(reservationId, attempt);
    const started = performance.now();
    const transaction = pricing.fixedRate
      ? await this.provider.createFixedTransaction({
          ...attempt,
          rateId: pricing.fixedRate.providerRateId,
          refundAddress: input.refundAddress ?? '',
        })
      : await this.provider.createTransaction({
          ...attempt,
          ...(input.refundAddress !== undefined ? { refundAddress: input.refundAddress } : {}),
        });
    this.logger.log(
      { swapId, orgId: partner.organizationId, latencyMs: Math.round(performance.now() - started) },
      'upstream transaction created',
    );
    return this.persist(partner, key, input, pricing, transaction, reservationId, swapId);
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
    const rate = await this.fixedRates.findForOrganization(
      input.rateId ?? '',
      partner.organizationId,
    );
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

  /** Finds the transaction a lost answer had created: same payout address, pair and amount. */
  private async reconcile(attempt: UpstreamAttempt): Promise<ProviderTransaction | null> {
    const candidates = await this.provider.getTransactions({
      payoutAddress: attempt.address,
      limit: 20,
    });
    const startedAt = Date.parse(attempt.startedAt) - 60_000;
    for (const tx of candidates) {
      const matches =
        tx.from === attempt.from &&
        tx.to === attempt.to &&
        new Decimal(tx.amountExpectedFrom).eq(attempt.amountFrom) &&
        Date.parse(tx.createdAt) >= startedAt;
      if (matches && !(await this.swaps.existsWithProviderTransactionId(tx.id))) {
        return tx;
      }
    }
    return null;
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
      await this.idempotency.complete(manager, reservationId, swap.id);
    });
    this.logger.log(
      { swapId: swap.id, orgId: partner.organizationId, mode: swap.mode },
      'swap created',
    );
    return swap;
  }

  private async stored(swapId: string, organizationId: string): Promise<SwapView> {
    const swap = await this.swaps.findByIdForOrg(swapId, organizationId);
    if (!swap) {
      throw new AppError(ErrorCode.NotFound, 'Swap not found.');
    }
    return toSwapView(swap);
  }

  /**
   * A definite failure gives the key back. A lost answer (timeout, connection cut) keeps the
   * recorded attempt so the retry reconciles instead of creating a second transaction.
   */
  private async afterFailure(reservationId: string, error: unknown): Promise<void> {
    const answerLost =
      error instanceof ProviderError &&
      error.code === ErrorCode.UpstreamUnavailable &&
      error.method.startsWith('create');
    if (answerLost) {
      await this.idempotency.unlockForReconciliation(reservationId);
    } else {
      await this.idempotency.release(reservationId);
    }
  }
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
