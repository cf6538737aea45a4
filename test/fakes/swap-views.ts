import type { OwnerScope } from '#app/domain';
import { swapViewRow, type SwapViewRow, type SwapViewsRepository } from '#app/swaps';
import type { FakeSwaps } from './swaps.js';

/** The partner's reads of the swaps a `FakeSwaps` holds. */
export class FakeSwapViews implements Pick<SwapViewsRepository, 'findViewByIdForOrg'> {
  constructor(private readonly swaps: FakeSwaps) {}

  async findViewByIdForOrg(id: string, owner: OwnerScope): Promise<SwapViewRow | null> {
    const swap = await this.swaps.findByIdForOrg(id, owner);
    return swap && swapViewRow(swap);
  }
}
