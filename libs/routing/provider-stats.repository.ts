import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ProviderName } from '#app/domain';
import { queryRows } from '#app/persistence';

/** Upper bounds (ms) of the latency buckets; the last bucket takes everything slower. */
export const LATENCY_BOUNDS_MS = [25, 50, 100, 200, 400, 800, 1600, 3200, 6400] as const;

/** What a replica saw of one provider in one mode during one minute. */
export interface ProviderMinute {
  provider: ProviderName;
  livemode: boolean;
  minute: Date;
  quotes: number;
  wins: number;
  errors: number;
  calls: number;
  /** Calls per latency bucket (`LATENCY_BOUNDS_MS`, then the slower rest). */
  latencyBuckets: number[];
}

/** A provider's last 24 hours in one mode, added up over every replica. */
export interface ProviderDay {
  quotes: number;
  wins: number;
  errors: number;
  calls: number;
  latencyBuckets: number[];
  swaps: number;
  /** The median of delivered over quoted rate of its float swaps finished; null with none. */
  fidelity: string | null;
}

/**
 * Routing's own counts, per minute (the only writer of `provider_stats`), and what the swaps
 * table tells of each provider. Rows older than a day are never read; housekeeping drops them.
 */
@Injectable()
export class ProviderStatsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Adds one replica's minutes to what every replica recorded, in one statement. */
  async add(minutes: readonly ProviderMinute[]): Promise<void> {
    if (minutes.length === 0) {
      return;
    }
    await this.dataSource.query(
      `INSERT INTO provider_stats
              (provider, livemode, minute, quotes, wins, errors, calls, latency_buckets)
       SELECT m.provider, m.livemode, m.minute, m.quotes, m.wins, m.errors, m.calls,
              ARRAY(SELECT jsonb_array_elements_text(m.buckets)::int)
         FROM jsonb_to_recordset($1::jsonb) AS m(provider varchar, livemode boolean,
              minute timestamptz, quotes int, wins int, errors int, calls int, buckets jsonb)
       ON CONFLICT (provider, livemode, minute) DO UPDATE SET
         quotes = provider_stats.quotes + EXCLUDED.quotes,
         wins = provider_stats.wins + EXCLUDED.wins,
         errors = provider_stats.errors + EXCLUDED.errors,
         calls = provider_stats.calls + EXCLUDED.calls,
         latency_buckets = ARRAY(
           SELECT a + b FROM unnest(provider_stats.latency_buckets, EXCLUDED.latency_buckets)
             AS t(a, b))`,
      [
        JSON.stringify(
          minutes.map((m) => ({
            provider: m.provider,
            livemode: m.livemode,
            minute: m.minute.toISOString(),
            quotes: m.quotes,
            wins: m.wins,
            errors: m.errors,
            calls: m.calls,
            buckets: m.latencyBuckets,
          })),
        ),
      ],
    );
  }

  /** A provider's last 24 hours in one mode. */
  async day(provider: ProviderName, livemode: boolean): Promise<ProviderDay> {
    const [counts] = await queryRows<{
      quotes: string | null;
      wins: string | null;
      errors: string | null;
      calls: string | null;
      buckets: number[] | null;
    }>(
      this.dataSource,
      `SELECT sum(quotes) AS quotes, sum(wins) AS wins, sum(errors) AS errors,
              sum(calls) AS calls,
              (SELECT array_agg(total ORDER BY i) FROM (
                 SELECT i, sum(b)::int AS total
                   FROM provider_stats s2, unnest(s2.latency_buckets) WITH ORDINALITY AS u(b, i)
                  WHERE s2.provider = $1 AND s2.livemode = $2
                    AND s2.minute > now() - interval '24 hours'
                  GROUP BY i) per_bucket) AS buckets
         FROM provider_stats
        WHERE provider = $1 AND livemode = $2 AND minute > now() - interval '24 hours'`,
      [provider, livemode],
    );
    const [swaps] = await queryRows<{ swaps: string }>(
      this.dataSource,
      `SELECT count(*) AS swaps FROM swaps
        WHERE provider = $1 AND livemode = $2 AND created_at > now() - interval '24 hours'`,
      [provider, livemode],
    );
    return {
      quotes: Number(counts?.quotes ?? 0),
      wins: Number(counts?.wins ?? 0),
      errors: Number(counts?.errors ?? 0),
      calls: Number(counts?.calls ?? 0),
      latencyBuckets: counts?.buckets ?? LATENCY_BOUNDS_MS.map(() => 0).concat(0),
      swaps: Number(swaps.swaps),
      fidelity: (await this.fidelity(provider, livemode)).value,
    };
  }

  /**
   * The median, over the provider's float swaps finished in the last 24 hours (on one pair when
   * given), of the rate delivered over the rate the provider promised, and how many swaps it is
   * the median of. A larger or smaller deposit does not move it: both sides are rates.
   */
  async fidelity(
    provider: ProviderName,
    livemode: boolean,
    pair?: { from: string; to: string },
  ): Promise<{ value: string | null; swaps: number }> {
    const [row] = await queryRows<{ value: string | null; swaps: string }>(
      this.dataSource,
      `SELECT (percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio))::numeric(20, 8)::text AS value,
              count(*) AS swaps
         FROM (SELECT (amount_actual_to / amount_actual_from)
                        / (provider_expected_to / amount_from) AS ratio
                 FROM swaps
                WHERE provider = $1 AND livemode = $2
                  AND status = 'finished' AND mode = 'float'
                  AND updated_at > now() - interval '24 hours'
                  AND amount_actual_from > 0 AND amount_actual_to IS NOT NULL
                  AND provider_expected_to > 0
                  AND ($3::varchar IS NULL OR (from_ticker = $3 AND to_ticker = $4))) finished`,
      [provider, livemode, pair?.from ?? null, pair?.to ?? null],
    );
    return { value: row.value, swaps: Number(row.swaps) };
  }

  /** Drops what no read looks at any more. */
  async prune(): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM provider_stats WHERE minute < now() - interval '25 hours'`,
    );
  }
}
