import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface PurgeResult {
  idempotencyKeys: number;
  fixedRates: number;
}

/**
 * Rows whose purpose has passed: idempotency keys past their 24 h window, and fixed rates that
 * expired unused a day ago. Used rates stay: a swap refers to them.
 */
@Injectable()
export class HousekeepingRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async purgeExpired(): Promise<PurgeResult> {
    const [, keys] = await this.dataSource.query<[unknown, number]>(
      `DELETE FROM idempotency_keys WHERE expires_at < now()`,
    );
    const [, rates] = await this.dataSource.query<[unknown, number]>(
      `DELETE FROM fixed_rates WHERE used_at IS NULL AND expires_at < now() - interval '1 day'`,
    );
    return { idempotencyKeys: keys, fixedRates: rates };
  }
}
