import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { checkedRows } from '#app/persistence';

/** What the poller's backlog gauges show. */
export interface WebhookBacklog {
  pending: number;
  oldestAgeSeconds: number;
  endpoints: { endpointId: string; oldestAgeSeconds: number }[];
}

/** What the backlog gauges read from the outbox. */
@Injectable()
export class WebhookDeliveryMetrics {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Pending deliveries of enabled endpoints, how long the oldest has waited, and the same age
   * per endpoint that is owed any, longest waiting first.
   */
  async backlog(now: Date): Promise<WebhookBacklog> {
    const rows = await checkedRows(
      this.dataSource,
      { endpoint_id: 'string', pending: 'number', oldest: 'date' },
      `SELECT d.endpoint_id, count(*)::int AS pending, min(d.created_at) AS oldest
         FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
        WHERE d.status = 'pending' AND w.enabled
        GROUP BY d.endpoint_id
        ORDER BY oldest`,
    );
    const age = (oldest: Date): number => Math.max(0, (now.getTime() - oldest.getTime()) / 1000);
    return {
      pending: rows.reduce((sum, row) => sum + row.pending, 0),
      oldestAgeSeconds: rows.length > 0 ? age(rows[0].oldest) : 0,
      endpoints: rows.map((row) => ({
        endpointId: row.endpoint_id,
        oldestAgeSeconds: age(row.oldest),
      })),
    };
  }
}
