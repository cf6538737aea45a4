import { Injectable } from '@nestjs/common';
import type { OwnerScope } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { isSwapId } from './swap-id.js';
import {
  viewOfRow,
  type OperatorSwapView,
  type RefundedSwapView,
  type SwapView,
  type SwapViewRow,
} from './swap.view.js';
import { SwapViewsRepository } from './swap-views.repository.js';

/** A page of `GET /v1/swaps`: by `offset` or after the swap `startingAfter`, never both. */
export interface SwapListQuery {
  limit: number;
  offset?: number;
  startingAfter?: string;
  partnerReferenceId?: string;
}

/**
 * Reads of stored swaps: a partner's, always scoped to its organization and mode; an operator's,
 * of any swap.
 */
@Injectable()
export class SwapQueryService {
  constructor(private readonly swaps: SwapViewsRepository) {}

  async get(id: string, owner: OwnerScope): Promise<SwapView> {
    return viewOfRow(await this.row(id, owner));
  }

  /** The swap and its refund's hash, which the spec's Swap resource does not carry. */
  async getWithRefundHash(id: string, owner: OwnerScope): Promise<RefundedSwapView> {
    const swap = await this.row(id, owner);
    return { ...viewOfRow(swap), refundHash: swap.refundHash };
  }

  private async row(id: string, owner: OwnerScope): Promise<SwapViewRow> {
    const swap = isSwapId(id) ? await this.swaps.findViewByIdForOrg(id, owner) : null;
    if (!swap) {
      throw new AppError(ErrorCode.NotFound, 'Swap not found.');
    }
    return swap;
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

  /**
   * The owner's swaps, newest first. A deep `offset` costs index entries, not rows; a
   * `startingAfter` page is the dashboard's keyset page, the same at any depth and stable while
   * swaps are created (docs/decisions.md, "Pagination").
   */
  async list(owner: OwnerScope, query: SwapListQuery): Promise<SwapView[]> {
    const filters =
      query.partnerReferenceId === undefined
        ? {}
        : { partnerReferenceId: query.partnerReferenceId };
    if (query.startingAfter !== undefined) {
      if (query.offset !== undefined) {
        throw new AppError(ErrorCode.InvalidRequest, 'Send offset or startingAfter, not both.', {
          param: 'startingAfter',
        });
      }
      const after = isSwapId(query.startingAfter)
        ? await this.swaps.positionOf(query.startingAfter, owner)
        : null;
      if (after === null) {
        throw new AppError(
          ErrorCode.InvalidRequest,
          'startingAfter must be one of your swap ids.',
          {
            param: 'startingAfter',
          },
        );
      }
      return (await this.swaps.listViews(owner, filters, { limit: query.limit, after })).map(
        viewOfRow,
      );
    }
    const rows = query.offset
      ? await this.swaps.listViewsAtOffset(owner, filters, query.limit, query.offset)
      : await this.swaps.listViews(owner, filters, { limit: query.limit });
    return rows.map(viewOfRow);
  }
}
