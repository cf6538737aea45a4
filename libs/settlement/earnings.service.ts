import { Injectable } from '@nestjs/common';
import { PAYOUT_THRESHOLD_USD } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import type { EarningsEntryEntity, PayoutEntity } from '#app/persistence';
import { EarningsRepository } from './earnings.repository.js';

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
}
