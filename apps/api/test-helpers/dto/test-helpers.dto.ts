import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { TEST_HELPER_STATUSES, type TestHelperStatus } from '../test-helpers.service.js';
import { AmountField } from '../../common/amount.decorator.js';
import { TickerField } from '../../common/ticker.decorator.js';

export class TestDepositDto {
  @AmountField('amount', {
    required: false,
    api: {
      example: '0.1',
      description:
        'Decimal string; defaults to the amount the swap expects. On a fixed swap, any other amount ends it `expired`.',
    },
  })
  amount?: string;

  @ApiPropertyOptional({
    default: false,
    description: 'The deposit arrives after the deadline (`payTill`): a fixed swap ends `expired`.',
  })
  @Transform(({ value }: { value: unknown }) => (value === null ? undefined : value))
  @IsOptional()
  @IsBoolean({ message: 'late must be true or false.' })
  late?: boolean;
}

export class TestStatusDto {
  @ApiProperty({ enum: TEST_HELPER_STATUSES })
  @IsIn(TEST_HELPER_STATUSES, {
    message: `status must be one of ${TEST_HELPER_STATUSES.join(', ')}.`,
  })
  status: TestHelperStatus;
}

export class TestAddressesQueryDto {
  @TickerField('currency', 'eth')
  currency: string;
}

export class TestAddressesResponse {
  @ApiProperty({
    type: [String],
    description: 'Valid addresses of the currency, which pass the strict check of POST /v1/swaps.',
  })
  addresses: string[];
}
