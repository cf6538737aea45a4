import { Injectable } from '@nestjs/common';
import { Decimal } from 'decimal.js';
import { PAYOUT_THRESHOLD_USD } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { csvRow } from '#app/csv';
import type {
  EarningsEntryEntity,
  KeysetPage,
  KeysetPageRequest,
  PayoutEntity,
} from '#app/persistence';
import {
  EarningsRepository,
  type EarningsTotals,
  type LedgerEntryView,
  type PayoutView,
} from './earnings.repository.js';

/**
 * An organization's earnings as operators see them (docs/decisions.md, "Operating the service").
 */
export interface EarningsStatement {
  organizationId: string;
  /** Earned and not yet assigned to a payout. */
  balanceUsd: string;
  payoutThresholdUsd: string;
  entries: EarningsEntryEntity[];
  payouts: PayoutEntity[];
}

/** The totals with the way to the next payout, as the dashboard shows them. */
export interface EarningsSummary extends EarningsTotals {
  thresholdUsd: string;
  /** How far the accrued balance is to the threshold, 0–100, two decimals (rounded down). */
  progressPercent: string;
  /** USD still to earn before a payout is due; 0 once the threshold is reached. */
  remainingUsd: string;
}

/** The ledger export's columns, named as the ledger's fields. */
export const LEDGER_CSV_FIELDS: readonly (keyof LedgerEntryView)[] = [
  'id',
  'swapId',
  'from',
  'amountActualFrom',
  'usdPrice',
  'feePercent',
  'amountUsd',
  'createdAt',
];
/** Rows per `FETCH`: a chunk of CSV well under V8's large-object size (see the swaps export). */
const EXPORT_BATCH = 200;

@Injectable()
export class EarningsService {
  constructor(private readonly earnings: EarningsRepository) {}

  async statement(organizationId: string): Promise<EarningsStatement> {
    if (!(await this.earnings.organizationExists(organizationId))) {
      throw new AppError(ErrorCode.NotFound, 'Organization not found.');
    }
    const [balanceUsd, entries, payouts] = await Promise.all([
      this.earnings.balance(organizationId),
      this.earnings.entriesForOrg(organizationId),
      this.earnings.payoutsForOrg(organizationId),
    ]);
    return {
      organizationId,
      balanceUsd,
      payoutThresholdUsd: PAYOUT_THRESHOLD_USD,
      entries,
      payouts,
    };
  }

  /** Accrued, payable and paid, and the progress to the payout threshold. */
  async summary(organizationId: string): Promise<EarningsSummary> {
    const totals = await this.earnings.totals(organizationId);
    const accrued = Decimal.max(0, totals.accruedUsd);
    const threshold = new Decimal(PAYOUT_THRESHOLD_USD);
    return {
      ...totals,
      thresholdUsd: PAYOUT_THRESHOLD_USD,
      progressPercent: Decimal.min(100, accrued.div(threshold).mul(100))
        .toDecimalPlaces(2, Decimal.ROUND_DOWN)
        .toFixed(2),
      remainingUsd: Decimal.max(0, threshold.minus(accrued)).toFixed(),
    };
  }

  ledger(organizationId: string, page: KeysetPageRequest): Promise<KeysetPage<LedgerEntryView>> {
    return this.earnings.ledgerPage(organizationId, page);
  }

  payouts(organizationId: string): Promise<PayoutView[]> {
    return this.earnings.payoutViews(organizationId);
  }

  /** The whole ledger as CSV (RFC 4180, UTF-8), newest first, header row first. */
  async *exportLedgerCsv(organizationId: string): AsyncGenerator<string, void, undefined> {
    yield csvRow(LEDGER_CSV_FIELDS);
    for await (const rows of this.earnings.exportLedger(organizationId, EXPORT_BATCH)) {
      yield rows.map((row) => csvRow(LEDGER_CSV_FIELDS.map((field) => row[field]))).join('');
    }
  }
}
