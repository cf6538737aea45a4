import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { queryRows } from '#app/persistence';
import type { SlotReservation } from '#app/redis';

/** What else a reservation on Postgres takes (`UpstreamSlotsRepository.reserve`). */
export interface PostgresSlotOptions {
  /** The slot starts no sooner than this, in ms from now. */
  notBeforeMs?: number;
  /** The caller just lost the store: coordinate here again, whatever handover was past. */
  reopen?: boolean;
}

/** A reservation on Postgres: refused with `handedOver` once the store coordinates again. */
export interface PostgresSlotReservation extends SlotReservation {
  handedOver?: boolean;
}

function handoverKey(key: string): string {
  return `${key}:handover`;
}

/**
 * The same GCRA as the store's `reserveSlot`, on the Postgres clock, one row per slot key: the
 * coordinator every replica shares while Redis is unreachable. The only writer of
 * `upstream_slots`; plain SQL, one short transaction per reservation (the row lock lasts only for it).
 */
@Injectable()
export class UpstreamSlotsRepository {
  private readonly seeded = new Set<string>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * One slot, as the store's `reserveSlot`, starting no sooner than `notBeforeMs` from now (the
   * floor is kept even when the slot is refused). Refused with `handedOver` once the replicas'
   * handover moment (`beginHandover`) has passed: from then on the store coordinates, and a
   * replica still here must not grant beside it. `reopen`, from a replica that just lost the
   * store, forgets a past handover, so a new outage coordinates here again.
   *
   * The slot row is locked before the clock is read, in one transaction: a reservation either
   * commits before a `horizon` read (which waits for the lock and sees it) or reads a clock past
   * the handover and is refused.
   */
  async reserve(
    key: string,
    spacingMs: number,
    maxWaitMs: number,
    options: PostgresSlotOptions = {},
  ): Promise<PostgresSlotReservation> {
    if (!this.seeded.has(key)) {
      await queryRows(
        this.dataSource,
        `INSERT INTO upstream_slots (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`,
        [key],
      );
      this.seeded.add(key);
    }
    return this.dataSource.transaction(async (manager) => {
      if (options.reopen === true) {
        await manager.query(`DELETE FROM upstream_slots WHERE name = $1`, [handoverKey(key)]);
      }
      await manager.query(`SELECT 1 FROM upstream_slots WHERE name = $1 FOR UPDATE`, [key]);
      const [row] = await queryRows<{ granted: boolean; handed_over: boolean; wait_ms: string }>(
        manager,
        `WITH cur AS (
           SELECT GREATEST(tat, clock_timestamp(), clock_timestamp() + $4 * interval '1 millisecond')
                    AS start,
                  clock_timestamp() AS now,
                  EXISTS (SELECT 1 FROM upstream_slots h
                           WHERE h.name = $5 AND h.tat <= clock_timestamp()) AS handed_over
             FROM upstream_slots WHERE name = $1
         ),
         taken AS (
           UPDATE upstream_slots
              SET tat = CASE WHEN cur.handed_over THEN tat
                             WHEN cur.start <= cur.now + $3 * interval '1 millisecond'
                             THEN cur.start + $2 * interval '1 millisecond' ELSE cur.start END
             FROM cur
            WHERE name = $1
           RETURNING NOT cur.handed_over
                     AND cur.start <= cur.now + $3 * interval '1 millisecond' AS granted
         )
         SELECT taken.granted, cur.handed_over,
                EXTRACT(EPOCH FROM cur.start - cur.now) * 1000 AS wait_ms
           FROM cur, taken`,
        [key, spacingMs, maxWaitMs, options.notBeforeMs ?? 0, handoverKey(key)],
      );
      return row.handed_over
        ? { granted: false, waitMs: 0, handedOver: true }
        : { granted: row.granted, waitMs: Math.ceil(Number(row.wait_ms)) };
    });
  }

  /**
   * The moment every replica coordinating here moves back to the store, in ms from now (0 or less:
   * now). The first replica to find the store again sets it `leadMs` ahead; the others, reaching
   * the store later, get the same moment, until a replica that loses the store reopens this
   * coordinator (`reserve`'s `reopen`).
   */
  async beginHandover(key: string, leadMs: number): Promise<number> {
    const [row] = await queryRows<{ wait_ms: string }>(
      this.dataSource,
      `INSERT INTO upstream_slots (name, tat)
       VALUES ($1, clock_timestamp() + $2 * interval '1 millisecond')
       ON CONFLICT (name) DO UPDATE SET tat = upstream_slots.tat
       RETURNING EXTRACT(EPOCH FROM tat - clock_timestamp()) * 1000 AS wait_ms`,
      [handoverKey(key), leadMs],
    );
    return Math.ceil(Number(row.wait_ms));
  }

  /**
   * How far ahead of now the last slot granted here starts (0 when none is ahead), after any
   * reservation under way has committed (it waits for the slot row's lock).
   */
  async horizon(key: string): Promise<number> {
    const rows = await queryRows<{ ahead_ms: string }>(
      this.dataSource,
      `SELECT GREATEST(0, EXTRACT(EPOCH FROM tat - clock_timestamp()) * 1000) AS ahead_ms
         FROM upstream_slots WHERE name = $1 FOR UPDATE`,
      [key],
    );
    return rows.length === 0 ? 0 : Math.ceil(Number(rows[0].ahead_ms));
  }
}
