import { ApiPropertyOptional } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { IntegerField, StringField } from '#app/input';
import { SWAP_KEYSET_ID } from '#app/swaps';

export class ListSwapsDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 50 })
  @IntegerField('limit', { min: 1, max: 200 }, { required: false })
  limit?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    default: 0,
    description:
      'Swaps to skip, newest first. To walk every swap, prefer `startingAfter`: an offset page ' +
      'shifts while swaps are created. Not with `startingAfter`.',
  })
  // 1e20 is an integer to JavaScript but no bigint to Postgres (a 500); past 2^53 it is not exact.
  @IntegerField('offset', { min: 0, max: Number.MAX_SAFE_INTEGER }, { required: false })
  offset?: number;

  @ApiPropertyOptional({
    description:
      'One of your swap ids: the page holds the swaps created before it (exclusive), newest ' +
      'first, with the same filters. Pass the last id of a page to get the next one; stable ' +
      'while swaps are created. Not with `offset`; an id that is not one of your swaps answers ' +
      '400 `invalid_request`.',
  })
  @StringField(
    'startingAfter',
    { maxLength: 64, required: false },
    Matches(SWAP_KEYSET_ID, { message: 'startingAfter must be one of your swap ids.' }),
  )
  startingAfter?: string;

  @ApiPropertyOptional()
  @StringField('partnerReferenceId', { maxLength: 120, required: false })
  partnerReferenceId?: string;
}
