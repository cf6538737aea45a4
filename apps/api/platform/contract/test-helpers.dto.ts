import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AmountField, BooleanField, EnumField } from '#app/input';
import { TEST_HELPER_STATUSES, type TestHelperStatus } from '#app/test-mode';
import { TickerField } from './ticker.decorator.js';

export class TestDepositDto {
  @ApiPropertyOptional({
    example: '0.1',
    description:
      'Decimal string; defaults to the amount the swap expects. At most as many decimals as ' +
      'the `from` currency has (`GET /v1/currencies`), else 400 `invalid_request`. On a fixed ' +
      'swap, any other amount ends it `expired`. Only a `waiting` swap takes a deposit (409 ' +
      '`conflict` otherwise).',
  })
  @AmountField('amount', { required: false })
  amount?: string;

  @ApiPropertyOptional({
    default: false,
    description: 'The deposit arrives after the deadline (`payTill`): a fixed swap ends `expired`.',
  })
  @BooleanField('late', { required: false })
  late?: boolean;
}

export class TestStatusDto {
  @ApiProperty({ enum: TEST_HELPER_STATUSES })
  @EnumField('status', TEST_HELPER_STATUSES)
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
