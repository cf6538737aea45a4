import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { toInteger } from '../../common/integer-query.js';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { StringField } from '../../common/string-field.decorator.js';

const OFFSET_MESSAGE = `offset must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}.`;

export class ListSwapsDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 50 })
  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'limit must be an integer from 1 to 200.' })
  @Min(1, { message: 'limit must be an integer from 1 to 200.' })
  @Max(200, { message: 'limit must be an integer from 1 to 200.' })
  limit?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    default: 0,
  })
  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: OFFSET_MESSAGE })
  @Min(0, { message: OFFSET_MESSAGE })
  // 1e20 is an integer to JavaScript but no bigint to Postgres (a 500); past 2^53 it is not exact.
  @Max(Number.MAX_SAFE_INTEGER, { message: OFFSET_MESSAGE })
  offset?: number;

  @StringField('partnerReferenceId', { maxLength: 120, required: false })
  partnerReferenceId?: string;
}
