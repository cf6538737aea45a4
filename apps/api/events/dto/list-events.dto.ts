import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { toInteger } from '../../common/integer-query.js';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { EVENT_TYPES, type EventType } from '#app/events';
import { StringField } from '../../common/string-field.decorator.js';

const LIMIT_MESSAGE = 'limit must be an integer from 1 to 200.';

export class ListEventsDto {
  @StringField('after', {
    maxLength: 64,
    required: false,
    api: { description: 'An event id: the page starts after it (exclusive).' },
  })
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
