import { Injectable } from '@nestjs/common';
import type { OwnerScope } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { csvRow } from '#app/csv';
import type { KeysetPage, KeysetPageRequest } from '#app/persistence';
import type { SwapFilters } from './swap-filters.js';
import { viewOfRow, type SwapView } from './swap.view.js';
import { SwapViewsRepository } from './swap-views.repository.js';

/**
 * The columns of a swaps export: every field of the Swap resource, named and ordered as the API
 * writes them. A record over the view's keys, so a field added to the view without a column here
 * (or the reverse) fails to compile.
 */
const CSV_COLUMNS: Record<keyof SwapView, true> = {
  id: true,
  providerSwapId: true,
  status: true,
  mode: true,
  livemode: true,
  from: true,
  to: true,
  amountFrom: true,
  amountExpectedFrom: true,
  amountExpectedTo: true,
  amountActualFrom: true,
  amountActualTo: true,
  networkFee: true,
  actualNetworkFee: true,
  rate: true,
  payinAddress: true,
  payoutAddress: true,
  refundAddress: true,
  payinHash: true,
  payoutHash: true,
  moneyReceivedAt: true,
  moneySentAt: true,
  amountAnomalyPct: true,
  partnerReferenceId: true,
  payTill: true,
  createdAt: true,
};
export const SWAP_CSV_FIELDS = Object.keys(CSV_COLUMNS) as (keyof SwapView)[];

/**
 * Rows per `FETCH`, and so per chunk written: about 75 KB of CSV. A chunk stays under V8's
 * large-object size (128 KB), so it dies young: a larger one is kept until a full collection,
 * and a fast export piles them up.
 */
const EXPORT_BATCH = 200;
/**
 * Exports running at once in one process. Each holds a pooled connection for its whole length;
 * a few leave the pool to everything else.
 */
const MAX_RUNNING_EXPORTS = 3;

/** The dashboard's reads of an organization's swaps: filtered pages, their pairs and exports. */
@Injectable()
export class SwapSearchService {
  private runningExports = 0;

  constructor(private readonly swaps: SwapViewsRepository) {}

  async search(
    owner: OwnerScope,
    filters: SwapFilters,
    page: KeysetPageRequest,
  ): Promise<KeysetPage<SwapView>> {
    const result = await this.swaps.searchViews(owner, filters, page);
    return { ...result, items: result.items.map(viewOfRow) };
  }

  /** The pairs the owner's swaps use, for a pair filter's choices. */
  pairs(owner: OwnerScope): Promise<{ from: string; to: string }[]> {
    return this.swaps.pairsOfOwner(owner);
  }

  /**
   * The owner's swaps matching `filters` as CSV (RFC 4180, UTF-8), newest first: the header row
   * of `SWAP_CSV_FIELDS` first, then one chunk per batch read. The first `next()` fails with
   * `rate_limited` when too many exports are running, before anything is written; stopping
   * early (a closed download) ends the read and frees its connection.
   */
  async *exportCsv(
    owner: OwnerScope,
    filters: SwapFilters,
  ): AsyncGenerator<string, void, undefined> {
    if (this.runningExports >= MAX_RUNNING_EXPORTS) {
      throw new AppError(ErrorCode.RateLimited, 'Other exports are running; try again shortly.', {
        retryAfterMs: 5000,
      });
    }
    this.runningExports += 1;
    try {
      yield csvRow(SWAP_CSV_FIELDS);
      for await (const rows of this.swaps.exportViews(owner, filters, EXPORT_BATCH)) {
        yield rows
          .map((row) => {
            const view = viewOfRow(row);
            return csvRow(SWAP_CSV_FIELDS.map((field) => view[field]));
          })
          .join('');
      }
    } finally {
      this.runningExports -= 1;
    }
  }
}
