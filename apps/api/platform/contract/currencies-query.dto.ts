import { ApiPropertyOptional } from '@nestjs/swagger';
import { BooleanField } from '#app/input';

export class CurrenciesQueryDto {
  @ApiPropertyOptional({
    type: 'boolean',
    default: false,
    description: 'Only tickers. `true` or `false` (`1` and `0` read the same).',
  })
  @BooleanField('lite', { required: false, fromText: true })
  lite?: boolean;
}
