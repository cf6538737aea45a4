import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Decimal } from 'decimal.js';
import { DataSource } from 'typeorm';
import { applyFee, netOfNetworkFee, type OwnerScope } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { EventRecorder } from '#app/events';
import type { AuthenticatedPartner } from '#app/partners';
import type { CreateSwapInput } from './create-swap.input.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import type { Pricing } from './swap-pricing.js';
import { buildSwap } from './swap.factory.js';
import { toSwapView, viewOfRow, type SwapView } from './swap.view.js';
import { SwapViewsRepository } from './swap-views.repository.js';
import { SwapsRepository } from './swaps.repository.js';
import type { UpstreamTransaction } from './upstream-attempts.js';

/** A transaction the provider created, the request and key it was created for. */
export interface CreatedTransaction {
  partner: AuthenticatedPartner;
  key: string;
  reservationId: string;
  input: CreateSwapInput;
  pricing: Pricing;
  made: UpstreamTransaction;
  swapId: string;
}

/**
 * Stores what a creation made (docs/decisions.md, "Swap amounts and fees"): the swap, its
 * `swap.created` event and the completed key commit together, so a key is never completed
 * without its swap nor a swap stored without its event. Reads a replayed key's swap back.
 */
@Injectable()
export class SwapPersistence {
  private readonly logger = new Logger(SwapPersistence.name);

  constructor(
    private readonly swaps: SwapsRepository,
    private readonly idempotency: IdempotencyRepository,
    private readonly views: SwapViewsRepository,
    private readonly events: EventRecorder,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Stores the swap, its event and the completed key; answers the swap as its creation shows it. */
  async store(created: CreatedTransaction): Promise<SwapView> {
    const { partner, input, pricing } = created;
    const { provider, tx } = created.made;
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
      id: created.swapId,
      organizationId: partner.organizationId,
      livemode: partner.livemode,
      credentialId: partner.credentialId,
      idempotencyKey: created.key,
      provider,
      providerTransactionId: tx.id,
      providerExpectedTo: tx.amountExpectedTo,
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
    const view = toSwapView(swap);
    await this.dataSource.transaction(async (manager) => {
      await this.swaps.insert(manager, swap);
      await this.events.swapCreated(manager, swap.organizationId, view);
      await this.idempotency.complete(manager, created.reservationId, view);
    });
    this.logger.log(
      { swapId: swap.id, orgId: partner.organizationId, mode: swap.mode, provider },
      'swap created',
    );
    return view;
  }

  /** The swap a completed key created, as its owner reads it. */
  async find(swapId: string, owner: OwnerScope): Promise<SwapView> {
    const swap = await this.views.findViewByIdForOrg(swapId, owner);
    if (!swap) {
      throw new AppError(ErrorCode.NotFound, 'Swap not found.');
    }
    return viewOfRow(swap);
  }
}
