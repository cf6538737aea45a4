import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { toInteger } from '../../common/integer-query.js';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { EVENT_TYPES, type EventType } from '#app/events';
import { IsPlainText } from '#app/input';
import { StringField } from '../../common/string-field.decorator.js';

const URL_MAX = 2048;
const DESCRIPTION_MAX = 500;
const EVENTS_MESSAGE = `events must be a non-empty list of distinct event types: ${EVENT_TYPES.join(', ')}.`;

/** `events`: a non-empty list of distinct known types. */
function EventTypesField(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'array',
      items: { type: 'string', enum: [...EVENT_TYPES] },
      description: 'The event types sent to this endpoint; all of them when omitted.',
    }),
    IsOptional(),
    IsArray({ message: EVENTS_MESSAGE }),
    ArrayNotEmpty({ message: EVENTS_MESSAGE }),
    ArrayMaxSize(EVENT_TYPES.length, { message: EVENTS_MESSAGE }),
    ArrayUnique(undefined, { message: EVENTS_MESSAGE }),
    IsIn(EVENT_TYPES, { each: true, message: EVENTS_MESSAGE }),
  );
}

export class CreateWebhookEndpointDto {
  @StringField('url', {
    maxLength: URL_MAX,
    notEmpty: true,
    api: { description: 'https:// (http:// only in test mode), a public host.' },
  })
  url: string;

  @EventTypesField()
  events?: EventType[];

  @StringField('description', { maxLength: DESCRIPTION_MAX, required: false })
  description?: string;
}

export class UpdateWebhookEndpointDto {
  @StringField('url', { maxLength: URL_MAX, required: false, notEmpty: true })
  url?: string;

  @EventTypesField()
  events?: EventType[];

  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: DESCRIPTION_MAX })
  @IsOptional()
  @IsString({ message: 'description must be a string or null.' })
  @MaxLength(DESCRIPTION_MAX, {
    message: `description must be at most ${DESCRIPTION_MAX} characters.`,
  })
  @IsPlainText()
  description?: string | null;

  @ApiPropertyOptional({ description: 'False stops deliveries; true resumes them.' })
  @IsOptional()
  @IsBoolean({ message: 'enabled must be true or false.' })
  enabled?: boolean;
}

const LIMIT_MESSAGE = 'limit must be an integer from 1 to 100.';

export class ListDeliveriesDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(100, { message: LIMIT_MESSAGE })
  limit?: number;
}
