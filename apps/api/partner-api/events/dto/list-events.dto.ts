import { ApiPropertyOptional } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { EVENT_ID, EVENT_TYPES, type EventType } from '#app/events';
import { EnumField, IntegerField, StringField } from '#app/input';

export class ListEventsDto {
  @ApiPropertyOptional({
    description:
      'One of your event ids (`evt_…`): the page starts after it (exclusive). Any other value answers 400 `invalid_request`.',
  })
  @StringField(
    'after',
    { maxLength: 64, required: false },
    Matches(EVENT_ID, { message: 'after must be one of your event ids (evt_…).' }),
  )
  after?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 50 })
  @IntegerField('limit', { min: 1, max: 200 }, { required: false })
  limit?: number;

  @ApiPropertyOptional({ enum: EVENT_TYPES })
  @EnumField('type', EVENT_TYPES, { required: false })
  type?: EventType;
}
