import { ApiProperty } from '@nestjs/swagger';
import { EVENT_TYPES, type EventType, type PartnerEvent } from '#app/events';
import { SwapResource } from '../../../platform/contract/swap.response.js';

export class EventDataResource {
  @ApiProperty({ type: SwapResource, description: 'The swap as it was right after the change.' })
  swap: SwapResource;

  @ApiProperty({ type: 'string', nullable: true, description: 'Null for `swap.created`.' })
  previousStatus: string | null;
}

/** The Event resource (docs/decisions.md, "The event feed"). */
export class EventResource implements PartnerEvent {
  @ApiProperty({ example: 'evt_3f2a9c0d1e4b5a6978c1d2e3' }) id: string;
  @ApiProperty({ enum: EVENT_TYPES }) type: EventType;
  @ApiProperty({ type: 'string', format: 'date-time' }) createdAt: string;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ type: EventDataResource }) data: EventDataResource;
}

export class EventListResponse {
  @ApiProperty({ type: [EventResource] }) events: EventResource[];
}

export class EventFeedResponse {
  @ApiProperty({ type: [EventResource] }) events: EventResource[];
  @ApiProperty({ description: 'More events follow: ask again with `after` = the last id.' })
  hasMore: boolean;
}
