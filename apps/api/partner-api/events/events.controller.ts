import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '#app/errors';
import type { AuthenticatedPartner } from '#app/partners';
import { ApiErrors } from '../../platform/contract/api-errors.decorator.js';
import { CurrentPartner } from '../../platform/auth/current-partner.decorator.js';
import { PartnerApi } from '../../platform/auth/partner-api.decorator.js';
import { EventFeedResponse, EventListResponse } from './dto/event.response.js';
import { ListEventsDto } from './dto/list-events.dto.js';
import { EventsService } from './events.service.js';

const DEFAULT_LIMIT = 50;

@ApiTags('events')
@PartnerApi()
@Controller('v1')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get('events')
  @ApiOperation({
    summary: 'The event feed',
    description:
      'Your events of this mode in a stable order; page with `after` = the last id you saw. A page never skips nor repeats an event, even while new ones are written. `hasMore: false` means caught up for now: ask again later with the same `after`. An `after` that is not one of your events of this mode answers 400 `invalid_request` with `param: "after"`.',
  })
  @ApiErrors(ErrorCode.InvalidRequest)
  @ApiOkResponse({ type: EventFeedResponse, description: 'A page of the feed.' })
  async feed(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Query() query: ListEventsDto,
  ): Promise<EventFeedResponse> {
    return this.events.feed(partner, {
      after: query.after,
      limit: query.limit ?? DEFAULT_LIMIT,
      type: query.type,
    });
  }

  @Get('swaps/:id/events')
  @ApiOperation({
    summary: "A swap's history",
    description: 'Every event of the swap, oldest first, starting with `swap.created`.',
  })
  @ApiErrors(ErrorCode.NotFound)
  @ApiOkResponse({ type: EventListResponse, description: "The swap's events, oldest first." })
  async forSwap(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Param('id') id: string,
  ): Promise<EventListResponse> {
    return { events: await this.events.forSwap(id, partner) };
  }
}
