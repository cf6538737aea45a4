import { Injectable } from '@nestjs/common';
import { Decimal } from 'decimal.js';
import type { OwnerScope } from '#app/domain';
import {
  assertWithinBounds,
  CatalogueService,
  parseAmount,
  type ResolvedPair,
} from '#app/catalogue';
import { CHAIN_NAMES, isChain, validateAddress } from '#app/chains';
import { AppError, ErrorCode } from '#app/errors';
import type { FixedRateEntity } from '#app/persistence';
import { FixedRatesRepository } from '#app/quotes';
import type { CreateSwapInput } from './create-swap.input.js';
import type { UpstreamAttempt } from './idempotency.repository.js';

/** The terms a swap is created on: its pair, the amount sent and, for a fixed swap, its quote. */
export interface Pricing {
  pair: ResolvedPair;
  amountFrom: string;
  fixedRate: FixedRateEntity | null;
}

/**
 * Everything checked before money can move (spec rules 5–9, docs/decisions.md, "Fixed rates are
 * spent when a swap takes them"): the pair, the amount, the addresses and the fixed rate, which a
 * swap spends before it goes upstream.
 */
@Injectable()
export class SwapPricing {
  constructor(
    private readonly catalogue: CatalogueService,
    private readonly fixedRates: FixedRatesRepository,
  ) {}

  /** The terms of `input`, or the reason it may not be created. */
  async price(owner: OwnerScope, input: CreateSwapInput): Promise<Pricing> {
    const pair = await this.catalogue.pair(owner.livemode, input.from, input.to);
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
    const rate = await this.fixedRates.findForOwner(input.rateId ?? '', owner);
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

  /** The terms an attempt was made on, to store the transaction a lookup found for it. */
  async termsOf(owner: OwnerScope, attempt: UpstreamAttempt): Promise<Pricing> {
    const pair = await this.catalogue.pair(owner.livemode, attempt.from, attempt.to);
    const fixedRate = attempt.fixedRateId
      ? await this.fixedRates.findForOwner(attempt.fixedRateId, owner)
      : null;
    return { pair, amountFrom: attempt.amountFrom, fixedRate };
  }

  /** Spends a fixed swap's quote on `swapId`; a quote another swap took is 409 `rate_expired`. */
  async spend(pricing: Pricing, owner: OwnerScope, swapId: string): Promise<void> {
    if (
      pricing.fixedRate &&
      !(await this.fixedRates.consume(pricing.fixedRate.id, owner, swapId))
    ) {
      throw rateExpired();
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
export function assertModeFields(input: CreateSwapInput): void {
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
