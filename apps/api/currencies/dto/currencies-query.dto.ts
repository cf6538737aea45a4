import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';

const BOOLEAN_WORDS: Record<string, boolean> = { true: true, '1': true, false: false, '0': false };

export class CurrenciesQueryDto {
  @ApiPropertyOptional({
    type: 'boolean',
    default: false,
    description: 'Only tickers. `true` or `false` (`1` and `0` read the same).',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && value in BOOLEAN_WORDS ? BOOLEAN_WORDS[value] : value,
  )
  @IsBoolean({ message: 'lite must be true or false.' })
  lite?: boolean;
}
