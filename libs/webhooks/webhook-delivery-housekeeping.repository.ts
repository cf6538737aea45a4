import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { changedRows } from '#app/persistence';

/** What housekeeping removes from the outbox. */
@Injectable()
export class WebhookDeliveryHousekeeping {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Deletes finished deliveries (and their attempts) of events created before `before`. */
  async purgeFinishedBefore(before: Date, batch: number): Promise<number> {
    return changedRows(
      this.dataSource,
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT d.id FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
          WHERE e.created_at < $1 AND d.status <> 'pending'
          LIMIT $2)`,
      [before, batch],
    );
  }
}
