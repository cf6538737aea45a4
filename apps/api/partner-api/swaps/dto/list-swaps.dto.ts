import { ApiPropertyOptional } from '@nestjs/swagger';
import { IntegerField, StringField } from '#app/input';

export class ListSwapsDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 50 })
  @IntegerField('limit', { min: 1, max: 200 }, { required: false })
  limit?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    default: 0,
  })
  // 1e20 is an integer to JavaScript but no bigint to Postgres (a 500); past 2^53 it is not exact.
  @IntegerField('offset', { min: 0, max: Number.MAX_SAFE_INTEGER }, { required: false })
  offset?: number;

  @ApiPropertyOptional()
  @StringField('partnerReferenceId', { maxLength: 120, required: false })
  partnerReferenceId?: string;
}
