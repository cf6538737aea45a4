import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { OwnerScope } from '#app/domain';

/** One UTC day of an organization's swaps in one mode. */
export interface DailyActivity {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  /** Swaps created that day. */
  swaps: number;
  /** Of those, the finished ones. */
  finished: number;
  /**
   * The finished ones' received amounts (`amountActualFrom`) in USD at the price their fee was
   * booked at, to the cent; only swaps whose fee is booked have a price.
   */
  volumeUsd: string;
  /** Finished swaps without a USD price (test mode, or a price still to read). */
  unpricedFinished: number;
}

/**
 * Reads of swaps with what they earned, for the dashboard's overview. Reads only: the swaps
 * and earnings libs remain the writers of both tables.
 */
@Injectable()
export class ActivityRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Every day from `firstDay` to `lastDay` (UTC, both included), days without swaps as zeros. */
  async daily(owner: OwnerScope, firstDay: string, lastDay: string): Promise<DailyActivity[]> {
    return this.dataSource.query<DailyActivity[]>(
      `WITH per_day AS (
         SELECT (s.created_at AT TIME ZONE 'UTC')::date AS day,
                count(*)::int AS swaps,
                count(*) FILTER (WHERE s.status = 'finished')::int AS finished,
                sum(e.amount_actual_from * e.usd_price)
                  FILTER (WHERE s.status = 'finished') AS volume_usd,
                count(*) FILTER (WHERE s.status = 'finished' AND e.swap_id IS NULL)::int
                  AS unpriced
           FROM swaps s LEFT JOIN earnings_ledger e ON e.swap_id = s.id
          WHERE s.organization_id = $1 AND s.livemode = $2
            AND s.created_at >= $3::date::timestamp AT TIME ZONE 'UTC'
            AND s.created_at < ($4::date + 1)::timestamp AT TIME ZONE 'UTC'
          GROUP BY 1)
       SELECT to_char(d.day, 'YYYY-MM-DD') AS day,
              COALESCE(p.swaps, 0) AS swaps,
              COALESCE(p.finished, 0) AS finished,
              round(COALESCE(p.volume_usd, 0), 2)::text AS "volumeUsd",
              COALESCE(p.unpriced, 0) AS "unpricedFinished"
         FROM generate_series($3::date, $4::date, interval '1 day') AS d(day)
         LEFT JOIN per_day p ON p.day = d.day::date
        ORDER BY d.day`,
      [owner.organizationId, owner.livemode, firstDay, lastDay],
    );
  }
}
