import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { queryRows } from '#app/persistence';
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

  /**
   * One slot, as the store's `reserveSlot`, starting no sooner than `notBeforeMs` from now (the
   * floor is kept even when the slot is refused).
   */
  async reserve(
    key: string,
    spacingMs: number,
    maxWaitMs: number,
    notBeforeMs = 0,
  ): Promise<SlotReservation> {
    if (!this.seeded.has(key)) {
      await queryRows(
        this.dataSource,
        `INSERT INTO upstream_slots (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`,
        [key],
      );
      this.seeded.add(key);
    }
    const [row] = await queryRows<{ granted: boolean; wait_ms: string }>(
      this.dataSource,
      `WITH cur AS (
         SELECT GREATEST(tat, clock_timestamp(), clock_timestamp() + $4 * interval '1 millisecond')
                  AS start,
                clock_timestamp() AS now
           FROM upstream_slots WHERE name = $1 FOR UPDATE
       ),
       taken AS (
         UPDATE upstream_slots
            SET tat = CASE WHEN cur.start <= cur.now + $3 * interval '1 millisecond'
                           THEN cur.start + $2 * interval '1 millisecond' ELSE cur.start END
           FROM cur
          WHERE name = $1
         RETURNING cur.start <= cur.now + $3 * interval '1 millisecond' AS granted
       )
       SELECT taken.granted, EXTRACT(EPOCH FROM cur.start - cur.now) * 1000 AS wait_ms
         FROM cur, taken`,
      [key, spacingMs, maxWaitMs, notBeforeMs],
    );
    return { granted: row.granted, waitMs: Math.ceil(Number(row.wait_ms)) };
  }

  /**
   * The moment every replica coordinating here moves back to the store, in ms from now (0 or less:
   * now), under `key`. The first replica to find the store again sets it `handoverMs` ahead; the
   * others, reaching the store later, get the same moment until it is `handoverMs` past.
   */
  async beginHandover(key: string, handoverMs: number): Promise<number> {
    const [row] = await queryRows<{ wait_ms: string }>(
      this.dataSource,
      `INSERT INTO upstream_slots (name, tat)
       VALUES ($1, clock_timestamp() + $2 * interval '1 millisecond')
       ON CONFLICT (name) DO UPDATE SET tat = CASE
         WHEN upstream_slots.tat > clock_timestamp() - $2 * interval '1 millisecond'
           THEN upstream_slots.tat
         ELSE clock_timestamp() + $2 * interval '1 millisecond' END
       RETURNING EXTRACT(EPOCH FROM tat - clock_timestamp()) * 1000 AS wait_ms`,
      [key, handoverMs],
    );
    return Math.ceil(Number(row.wait_ms));
  }

  /** How far ahead of now the last slot granted here starts (0 when none is ahead). */
  async horizon(key: string): Promise<number> {
    const rows = await queryRows<{ ahead_ms: string }>(
      this.dataSource,
      `SELECT GREATEST(0, EXTRACT(EPOCH FROM tat - clock_timestamp()) * 1000) AS ahead_ms
         FROM upstream_slots WHERE name = $1`,
      [key],
    );
    return rows.length === 0 ? 0 : Math.ceil(Number(rows[0].ahead_ms));
  }
}
