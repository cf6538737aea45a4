import { Injectable } from '@nestjs/common';
import type { OwnerScope } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { isSwapId } from './swap-id.js';
import { viewOfRow, type OperatorSwapView, type SwapView } from './swap.view.js';
import { SwapViewsRepository, type SwapListQuery } from './swap-views.repository.js';

/**
 * Reads of stored swaps: a partner's, always scoped to its organization and mode; an operator's,
 * of any swap.
 */
@Injectable()
export class SwapQueryService {
  constructor(private readonly swaps: SwapViewsRepository) {}

  async get(id: string, owner: OwnerScope): Promise<SwapView> {
    const swap = isSwapId(id) ? await this.swaps.findViewByIdForOrg(id, owner) : null;
    if (!swap) {
      throw new AppError(ErrorCode.NotFound, 'Swap not found.');
    }
    return viewOfRow(swap);
  }

  /** Any organization's swap, in either mode, with its provider and organization. */
  async getForOperator(id: string): Promise<OperatorSwapView> {
    const swap = isSwapId(id) ? await this.swaps.findViewByIdForOperator(id) : null;
    if (!swap) {
      throw new AppError(ErrorCode.NotFound, 'Swap not found.');
    }
    return {
      ...viewOfRow(swap),
      provider: swap.provider,
      providerTransactionId: swap.providerTransactionId,
      organizationId: swap.organizationId,
    };
  }

  async list(owner: OwnerScope, query: SwapListQuery): Promise<SwapView[]> {
    return (await this.swaps.listViewsForOrg(owner, query)).map(viewOfRow);
  }
}
