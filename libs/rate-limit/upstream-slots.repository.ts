import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { SlotReservation } from '#app/redis';

/**
 * The same GCRA as the store's `reserveSlot`, on the Postgres clock, one row per slot key: the
 * coordinator every replica shares while Redis is unreachable. The only writer of
 * `upstream_slots`; plain SQL, one statement per reservation (the row lock lasts only for it).
 */
@Injectable()
export class UpstreamSlotsRepository {
  private readonly seeded = new Set<string>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async reserve(key: string, spacingMs: number, maxWaitMs: number): Promise<SlotReservation> {
    if (!this.seeded.has(key)) {
      await this.dataSource.query(
        `INSERT INTO upstream_slots (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`,
        [key],
      );
      this.seeded.add(key);
    }
    const [row] = await this.dataSource.query<{ granted: boolean; wait_ms: string }[]>(
      `WITH cur AS (
         SELECT GREATEST(tat, clock_timestamp()) AS start, clock_timestamp() AS now
           FROM upstream_slots WHERE name = $1 FOR UPDATE
       ),
       taken AS (
         UPDATE upstream_slots SET tat = cur.start + $2 * interval '1 millisecond'
           FROM cur
          WHERE name = $1 AND cur.start <= cur.now + $3 * interval '1 millisecond'
         RETURNING 1
       )
       SELECT EXISTS (SELECT 1 FROM taken) AS granted,
              EXTRACT(EPOCH FROM cur.start - cur.now) * 1000 AS wait_ms
         FROM cur`,
      [key, spacingMs, maxWaitMs],
    );
    return { granted: row.granted, waitMs: Math.ceil(Number(row.wait_ms)) };
  }
}
