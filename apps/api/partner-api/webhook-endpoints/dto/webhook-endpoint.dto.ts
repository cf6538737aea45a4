import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, ArrayUnique, IsArray, IsIn } from 'class-validator';
import { EVENT_TYPES, type EventType } from '#app/events';
import { WEBHOOK_ENDPOINT_RULES } from '#app/webhooks';
import { BooleanField, Field, IntegerField, StringField } from '#app/input';

const URL_MAX = WEBHOOK_ENDPOINT_RULES.urlMaxLength;
const DESCRIPTION_MAX = WEBHOOK_ENDPOINT_RULES.descriptionMaxLength;
const EVENTS_MESSAGE = `events must be a non-empty list of distinct event types: ${EVENT_TYPES.join(', ')}.`;

/** `events`: a non-empty list of distinct known types. */
function EventTypesField(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'array',
      items: { type: 'string', enum: [...EVENT_TYPES] },
      description: 'The event types sent to this endpoint; all of them when omitted.',
    }),
    Field(
      { required: false },
      IsArray({ message: EVENTS_MESSAGE }),
      ArrayNotEmpty({ message: EVENTS_MESSAGE }),
      ArrayMaxSize(EVENT_TYPES.length, { message: EVENTS_MESSAGE }),
      ArrayUnique(undefined, { message: EVENTS_MESSAGE }),
      IsIn(EVENT_TYPES, { each: true, message: EVENTS_MESSAGE }),
    ),
  );
}

export class CreateWebhookEndpointDto {
  @ApiProperty({
    description:
      'https:// (http:// only in test mode), a public host: a host that resolves only to ' +
      'public addresses, checked when the endpoint is created or its URL changed; no ' +
      'credentials in the URL.',
    format: 'uri',
    example: 'https://partner.example.com/webhooks/swaps',
  })
  @StringField('url', { maxLength: URL_MAX, notEmpty: true })
  url: string;

  @EventTypesField()
  events?: EventType[];

  @ApiPropertyOptional()
  @StringField('description', { maxLength: DESCRIPTION_MAX, required: false })
  description?: string;
}

export class UpdateWebhookEndpointDto {
  @ApiPropertyOptional({
    description: 'As on create: https:// (http:// only in test mode), a public host.',
    format: 'uri',
    example: 'https://partner.example.com/webhooks/swaps',
  })
  @StringField('url', { maxLength: URL_MAX, required: false, notEmpty: true })
  url?: string;

  @EventTypesField()
  events?: EventType[];

  /** Null clears the description: one of the fields where null is a value. */
  @ApiPropertyOptional({ type: 'string', nullable: true })
  @StringField('description', {
    maxLength: DESCRIPTION_MAX,
    nullable: true,
    typeMessage: 'description must be a string or null.',
  })
  description?: string | null;

  @ApiPropertyOptional({ description: 'False stops deliveries; true resumes them.' })
  @BooleanField('enabled', { required: false })
  enabled?: boolean;
}

export class ListDeliveriesDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20 })
  @IntegerField('limit', { min: 1, max: 100 }, { required: false })
  limit?: number;
}
