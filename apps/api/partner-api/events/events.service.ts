import { Injectable } from '@nestjs/common';
import type { OwnerScope } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { EVENT_ID, EventsRepository, type EventType, type PartnerEvent } from '#app/events';
import { SwapQueryService } from '#app/swaps';

export interface FeedInput {
  after?: string;
  limit: number;
  type?: EventType;
}

/** A swap's history and the event feed, always the caller's organization and mode only. */
@Injectable()
export class EventsService {
  constructor(
    private readonly events: EventsRepository,
    private readonly swaps: SwapQueryService,
  ) {}

  /** Oldest first; 404 exactly when `GET /v1/swaps/{id}` would answer 404. */
  async forSwap(swapId: string, owner: OwnerScope): Promise<PartnerEvent[]> {
    await this.swaps.get(swapId, owner);
    return this.events.listForSwap(swapId, owner);
  }

  async feed(
    owner: OwnerScope,
    input: FeedInput,
  ): Promise<{ events: PartnerEvent[]; hasMore: boolean }> {
    let after = null;
    if (input.after !== undefined) {
      after = EVENT_ID.test(input.after) ? await this.events.findCursor(input.after, owner) : null;
      if (!after) {
        throw new AppError(
          ErrorCode.InvalidRequest,
          'after must be the id of one of your events.',
          {
            param: 'after',
          },
        );
      }
    }
    return this.events.feed(owner, { after, limit: input.limit, type: input.type });
  }
}
