import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { HousekeepingService } from './housekeeping.service.js';

const HOUR_MS = 60 * 60 * 1000;

/** Hourly clean-up; every poller replica may run it, the deletes are idempotent. */
@Injectable()
export class HousekeepingTick {
  private readonly logger = new Logger(HousekeepingTick.name);

  constructor(private readonly housekeeping: HousekeepingService) {}

  @Interval('housekeeping', HOUR_MS)
  async purge(): Promise<void> {
    try {
      const purged = await this.housekeeping.purgeExpired();
      this.logger.log({ ...purged }, 'expired idempotency keys and fixed rates purged');
    } catch (error: unknown) {
      // Nothing depends on it; the next hour tries again.
      this.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'housekeeping failed',
      );
    }
  }
}
