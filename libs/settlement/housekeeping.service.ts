import { Injectable } from '@nestjs/common';
import { FixedRatesRepository } from '#app/quotes';
import { IdempotencyRepository } from '#app/swaps';

export interface PurgeResult {
  idempotencyKeys: number;
  fixedRates: number;
}

/**
 * Rows whose purpose has passed, deleted through the repositories that own them: idempotency
 * keys past their 24 h window, and fixed rates that expired unused a day ago.
 */
@Injectable()
export class HousekeepingService {
  constructor(
    private readonly idempotency: IdempotencyRepository,
    private readonly fixedRates: FixedRatesRepository,
  ) {}

  async purgeExpired(): Promise<PurgeResult> {
    return {
      idempotencyKeys: await this.idempotency.purgeExpired(),
      fixedRates: await this.fixedRates.purgeExpired(),
    };
  }
}
