import { Injectable } from '@nestjs/common';
import type { OwnerScope } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { EVENT_ID, type EventType, type PartnerEvent } from './event.js';
import { EventsRepository, type FeedCursor } from './events.repository.js';

export interface EventPageQuery {
  /** An event id: the page holds the events older than it. */
  before?: string;
  /** An event id: the page holds the events newer than it. */
  after?: string;
  limit: number;
  type?: EventType;
}

/** A page of the feed, newest first, and whether there are events beyond it either way. */
export interface EventPage {
  events: PartnerEvent[];
  hasOlder: boolean;
  hasNewer: boolean;
}

/** The event feed as the dashboard shows it: one organization and mode, newest first. */
@Injectable()
export class EventsQueryService {
  constructor(private readonly events: EventsRepository) {}

  async get(id: string, owner: OwnerScope): Promise<PartnerEvent> {
    const event = EVENT_ID.test(id) ? await this.events.findForOwner(id, owner) : null;
    if (!event) {
      throw new AppError(ErrorCode.NotFound, 'Event not found.');
    }
    return event;
  }

  /** Keyset pages: `before` the oldest event of a page for the next, `after` its newest for the previous. */
  async page(owner: OwnerScope, query: EventPageQuery): Promise<EventPage> {
    if (query.before !== undefined && query.after !== undefined) {
      throw new AppError(ErrorCode.InvalidRequest, 'Give before or after, not both.', {
        param: 'after',
      });
    }
    const before = await this.cursor(query.before, 'before', owner);
    const after = await this.cursor(query.after, 'after', owner);
    const { events, hasMore } = await this.events.browse(owner, {
      before,
      after,
      limit: query.limit,
      type: query.type,
    });
    return after
      ? { events, hasOlder: true, hasNewer: hasMore }
      : { events, hasOlder: hasMore, hasNewer: before !== undefined };
  }

  private async cursor(
    id: string | undefined,
    param: 'before' | 'after',
    owner: OwnerScope,
  ): Promise<FeedCursor | undefined> {
    if (id === undefined) {
      return undefined;
    }
    const cursor = EVENT_ID.test(id) ? await this.events.findCursor(id, owner) : null;
    if (!cursor) {
      throw new AppError(
        ErrorCode.InvalidRequest,
        `${param} must be the id of one of your events.`,
        {
          param,
        },
      );
    }
    return cursor;
  }
}
