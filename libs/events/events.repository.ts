import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { OwnerScope } from '#app/domain';
import { changedRows, queryRows, type BatchStatement } from '#app/persistence';
import type { EventType, PartnerEvent, RecordedEvent } from './event.js';

/** Where a feed page starts: the position of the `after` event. */
export interface FeedCursor {
  xid: string;
  seq: string;
}

/** A page of the owner's events, newest first, older than `before` or newer than `after`. */
export interface BrowseQuery {
  before?: FeedCursor;
  after?: FeedCursor;
  limit: number;
  type?: EventType;
}

export interface FeedQuery {
  after: FeedCursor | null;
  limit: number;
  type?: EventType;
}

interface EventRow {
  id: string;
  type: EventType;
  created_at: Date;
  livemode: boolean;
  data: PartnerEvent['data'];
}

const EVENT_COLUMNS = 'id, type, created_at, livemode, data';

function toEvent(row: EventRow): PartnerEvent {
  return {
    id: row.id,
    type: row.type,
    createdAt: row.created_at.toISOString(),
    livemode: row.livemode,
    data: row.data,
  };
}

/**
 * The conditions of a page of the owner's events of `type` (every type when absent) beyond
 * `cursor`, upwards (newer) or downwards; only the conditions given appear, so each shape is
 * planned on its own index: `(organization_id, livemode, xid, seq)`, or with `type` after the
 * mode, a range in feed order however rare the type.
 */
function feedPage(
  owner: OwnerScope,
  type: EventType | undefined,
  cursor: FeedCursor | null,
  upwards: boolean,
): { conditions: string[]; values: unknown[]; param: (value: unknown) => string } {
  const values: unknown[] = [];
  const param = (value: unknown): string => `$${values.push(value)}`;
  const conditions = [
    `organization_id = ${param(owner.organizationId)}`,
    `livemode = ${param(owner.livemode)}`,
  ];
  if (type !== undefined) {
    conditions.push(`type = ${param(type)}`);
  }
  if (cursor !== null) {
    conditions.push(
      `(xid, seq) ${upwards ? '>' : '<'} (${param(cursor.xid)}::xid8, ${param(cursor.seq)}::bigint)`,
    );
  }
  return { conditions, values, param };
}

/**
 * The only writer of `events`. Every event row carries `xid`, the id of the transaction that
 * wrote it (the column's default); the feed orders by (xid, seq) and shows only rows of
 * transactions older than every transaction still running, so a page never passes an event that
 * commits later (docs/decisions.md, "The event feed").
 */
@Injectable()
export class EventsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * A step storing `events` in the statement that makes the changes they report; with `written`,
   * an event is stored only if its swap is among the ids that step returns (a write-back that did
   * not happen reports nothing). Answers the step returning each stored event's `id`,
   * `organization_id`, `livemode` and `type`.
   */
  insertWithin(statement: BatchStatement, events: RecordedEvent[], written?: string): string {
    const rows = events.map((event) => ({
      id: event.id,
      organization_id: event.organizationId,
      livemode: event.livemode,
      type: event.type,
      swap_id: event.data.swap.id,
      data: event.data,
      created_at: event.createdAt,
    }));
    // json, not jsonb, all the way: `data` keeps the order the resource renders its fields in.
    return statement.step(
      'recorded_events',
      `INSERT INTO events (id, organization_id, livemode, type, swap_id, data, created_at)
       SELECT e.id, e.organization_id, e.livemode, e.type, e.swap_id, e.data, e.created_at
         FROM ROWS FROM (json_to_recordset(${statement.param(JSON.stringify(rows))}::json)
                AS (id text, organization_id uuid, livemode boolean, type text, swap_id text,
                    data json, created_at timestamptz))
              WITH ORDINALITY AS e(id, organization_id, livemode, type, swap_id, data, created_at, n)
         ${written ? `JOIN ${written} w ON w.id = e.swap_id` : ''}
        ORDER BY e.n
       RETURNING id, organization_id, livemode, type`,
    );
  }

  /** A swap's events, oldest first; the caller has checked the swap is the owner's. */
  async listForSwap(swapId: string, owner: OwnerScope): Promise<PartnerEvent[]> {
    const rows = await queryRows<EventRow>(
      this.dataSource,
      `SELECT ${EVENT_COLUMNS} FROM events
        WHERE swap_id = $1 AND organization_id = $2 AND livemode = $3
        ORDER BY seq`,
      [swapId, owner.organizationId, owner.livemode],
    );
    return rows.map(toEvent);
  }

  /** Where the owner's event `id` sits in the feed; null when the owner has no such event. */
  async findCursor(id: string, owner: OwnerScope): Promise<FeedCursor | null> {
    const rows = await queryRows<{ xid: string; seq: string }>(
      this.dataSource,
      `SELECT xid::text AS xid, seq::text AS seq FROM events
        WHERE id = $1 AND organization_id = $2 AND livemode = $3`,
      [id, owner.organizationId, owner.livemode],
    );
    return rows[0] ?? null;
  }

  /** The owner's event `id`, or null. */
  async findForOwner(id: string, owner: OwnerScope): Promise<PartnerEvent | null> {
    const rows = await queryRows<EventRow>(
      this.dataSource,
      `SELECT ${EVENT_COLUMNS} FROM events
        WHERE id = $1 AND organization_id = $2 AND livemode = $3`,
      [id, owner.organizationId, owner.livemode],
    );
    return rows.length > 0 ? toEvent(rows[0]) : null;
  }

  /**
   * Up to `limit` of the owner's events next to a cursor, newest first, for people reading
   * the feed: in the feed's order, but without waiting for older transactions to end, so an
   * event shows as soon as it is committed (one committed late may land on a page already read).
   * Going `after` a cursor reads upwards, so the rows nearest it are taken; they are answered
   * newest first like every page. `hasMore`: more events lie beyond, in the direction read.
   */
  async browse(
    owner: OwnerScope,
    query: BrowseQuery,
  ): Promise<{ events: PartnerEvent[]; hasMore: boolean }> {
    const upwards = query.after !== undefined;
    const page = feedPage(owner, query.type, query.after ?? query.before ?? null, upwards);
    const rows = await queryRows<EventRow>(
      this.dataSource,
      `SELECT ${EVENT_COLUMNS} FROM events WHERE ${page.conditions.join(' AND ')}
        ORDER BY xid ${upwards ? 'ASC' : 'DESC'}, seq ${upwards ? 'ASC' : 'DESC'}
        LIMIT ${page.param(query.limit + 1)}`,
      page.values,
    );
    const events = rows.slice(0, query.limit).map(toEvent);
    return { events: upwards ? events.reverse() : events, hasMore: rows.length > query.limit };
  }

  /**
   * Up to `limit + 1` of the owner's events after the cursor, in feed order: by the writing
   * transaction, then by insertion. Only transactions below the current snapshot's xmin are
   * read: all of them have ended, so no event can later appear before the last one returned.
   */
  async feed(
    owner: OwnerScope,
    query: FeedQuery,
  ): Promise<{ events: PartnerEvent[]; hasMore: boolean }> {
    const page = feedPage(owner, query.type, query.after, true);
    page.conditions.push('xid < pg_snapshot_xmin(pg_current_snapshot())');
    const rows = await queryRows<EventRow>(
      this.dataSource,
      `SELECT ${EVENT_COLUMNS} FROM events WHERE ${page.conditions.join(' AND ')}
        ORDER BY xid, seq LIMIT ${page.param(query.limit + 1)}`,
      page.values,
    );
    return { events: rows.slice(0, query.limit).map(toEvent), hasMore: rows.length > query.limit };
  }

  /**
   * Deletes up to `batch` events created before `before` that no delivery refers to any more
   * (their deliveries are purged first, by the webhooks lib). Returns how many went.
   */
  async purgeBefore(before: Date, batch: number): Promise<number> {
    return changedRows(
      this.dataSource,
      `DELETE FROM events WHERE seq IN (
         SELECT e.seq FROM events e
          WHERE e.created_at < $1
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)
          LIMIT $2)`,
      [before, batch],
    );
  }
}
