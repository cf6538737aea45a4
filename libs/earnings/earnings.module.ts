import { Module } from '@nestjs/common';
import { EarningsRepository } from './earnings.repository.js';
import { EarningsService } from './earnings.service.js';

/** Earnings ledger, payouts and the operator's statement; needs no provider. */
@Module({
  providers: [EarningsRepository, EarningsService],
  exports: [EarningsRepository, EarningsService],
})
export class EarningsModule {}
