import { Injectable } from '@nestjs/common';
import type { OwnerScope } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { isSwapId } from './swap-id.js';
import { viewOfRow, type SwapView } from './swap.view.js';
import { SwapViewsRepository, type SwapListQuery } from './swap-views.repository.js';

/** Reads of stored swaps, always scoped to the caller's organization and mode. */
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

  async list(owner: OwnerScope, query: SwapListQuery): Promise<SwapView[]> {
    return (await this.swaps.listViewsForOrg(owner, query)).map(viewOfRow);
  }
}
