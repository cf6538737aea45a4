import { Injectable } from '@nestjs/common';
import { EventsRepository } from '#app/events';
import { FixedRatesRepository } from '#app/quotes';
import { IdempotencyRepository } from '#app/swaps';
import { WebhookDeliveryHousekeeping } from '#app/webhooks';

export interface PurgeResult {
  idempotencyKeys: number;
  fixedRates: number;
  events: number;
}

/** Events are kept at least this long (docs/decisions.md, "The event feed"). */
export const EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/** Rows deleted per statement, so one purge never holds many locks for long. */
const PURGE_BATCH = 5_000;

/**
 * Rows whose purpose has passed, deleted through the repositories that own them: idempotency
 * keys past their 24 h window, fixed rates that expired unused a day ago, and events older than
 * 30 days (their finished webhook deliveries first).
 */
@Injectable()
export class HousekeepingService {
  constructor(
    private readonly idempotency: IdempotencyRepository,
    private readonly fixedRates: FixedRatesRepository,
    private readonly events: EventsRepository,
    private readonly deliveries: WebhookDeliveryHousekeeping,
  ) {}

  async purgeExpired(now: Date = new Date()): Promise<PurgeResult> {
    return {
      idempotencyKeys: await this.idempotency.purgeExpired(),
      fixedRates: await this.fixedRates.purgeExpired(),
      events: await this.purgeEvents(new Date(now.getTime() - EVENT_RETENTION_MS)),
    };
  }

  private async purgeEvents(before: Date): Promise<number> {
    let deliveries: number;
    do {
      deliveries = await this.deliveries.purgeFinishedBefore(before, PURGE_BATCH);
    } while (deliveries === PURGE_BATCH);
    let purged = 0;
    for (;;) {
      const batch = await this.events.purgeBefore(before, PURGE_BATCH);
      purged += batch;
      if (batch < PURGE_BATCH) {
        return purged;
      }
    }
  }
}
