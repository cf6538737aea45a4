import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedPartner } from '#app/partners';
import { CurrentPartner } from '../auth/current-partner.decorator.js';
import { PartnerApi } from '../auth/partner-api.decorator.js';
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
      'Your events of this mode in a stable order; page with `after` = the last id you saw. A page never skips nor repeats an event, even while new ones are written.',
  })
  @ApiOkResponse({ type: EventFeedResponse })
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
  @ApiOkResponse({ type: EventListResponse })
  async forSwap(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Param('id') id: string,
  ): Promise<EventListResponse> {
    return { events: await this.events.forSwap(id, partner) };
  }
}
