import { Injectable } from '@nestjs/common';
import { Decimal } from 'decimal.js';
import type { OwnerScope } from '#app/domain';
import { ActivityRepository, type DailyActivity } from './activity.repository.js';

/** The overview's chart: one entry per day, oldest first, and the period's totals. */
export interface ActivitySeries {
  days: DailyActivity[];
  totals: Omit<DailyActivity, 'day'>;
}

const DAY_MS = 86_400_000;

/** An organization's recent activity for the dashboard's overview. */
@Injectable()
export class ActivityService {
  constructor(private readonly activity: ActivityRepository) {}

  /** The last `days` UTC days up to and including `now`'s. */
  async lastDays(owner: OwnerScope, days: number, now: Date = new Date()): Promise<ActivitySeries> {
    const lastDay = now.toISOString().slice(0, 10);
    const firstDay = new Date(now.getTime() - (days - 1) * DAY_MS).toISOString().slice(0, 10);
    const series = await this.activity.daily(owner, firstDay, lastDay);
    return {
      days: series,
      totals: {
        swaps: series.reduce((sum, d) => sum + d.swaps, 0),
        finished: series.reduce((sum, d) => sum + d.finished, 0),
        volumeUsd: series.reduce((sum, d) => sum.plus(d.volumeUsd), new Decimal(0)).toFixed(2),
        unpricedFinished: series.reduce((sum, d) => sum + d.unpricedFinished, 0),
      },
    };
  }
}
