import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { toInteger } from '../../common/integer-query.js';
import { IsIn, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { EVENT_ID, EVENT_TYPES, type EventType } from '#app/events';
import { StringField } from '../../common/string-field.decorator.js';

const LIMIT_MESSAGE = 'limit must be an integer from 1 to 200.';

export class ListEventsDto {
  @StringField('after', {
    maxLength: 64,
    required: false,
    api: {
      description:
        'One of your event ids (`evt_…`): the page starts after it (exclusive). Any other value answers 400 `invalid_request`.',
    },
  })
  @Matches(EVENT_ID, { message: 'after must be one of your event ids (evt_…).' })
  after?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 50 })
  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(200, { message: LIMIT_MESSAGE })
  limit?: number;

  @ApiPropertyOptional({ enum: EVENT_TYPES })
  @IsOptional()
  @IsIn(EVENT_TYPES, { message: `type must be one of ${EVENT_TYPES.join(', ')}.` })
  type?: EventType;
}
