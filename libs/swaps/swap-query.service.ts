import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '#app/errors';
import { isSwapId } from './swap-id.js';
import { toSwapView, type SwapView } from './swap.view.js';
import { SwapsRepository, type SwapListQuery } from './swaps.repository.js';

/** Reads of stored swaps, always scoped to the caller's organization. */
@Injectable()
export class SwapQueryService {
  constructor(private readonly swaps: SwapsRepository) {}

  async get(id: string, organizationId: string): Promise<SwapView> {
    const swap = isSwapId(id) ? await this.swaps.findByIdForOrg(id, organizationId) : null;
    if (!swap) {
      throw new AppError(ErrorCode.NotFound, 'Swap not found.');
    }
    return toSwapView(swap);
  }

  async list(organizationId: string, query: SwapListQuery): Promise<SwapView[]> {
    return (await this.swaps.listForOrg(organizationId, query)).map(toSwapView);
  }
}
