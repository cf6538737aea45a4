import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { type SwapMode, DEFAULT_SWAP_MODE, SWAP_MODES } from '#app/domain';
import { AmountField, EnumField } from '#app/input';
import { TickerField } from './ticker.decorator.js';

export class CreateQuoteDto {
  @TickerField('from', 'btc')
  from: string;

  @TickerField('to', 'eth')
  to: string;

  @ApiProperty({ example: '0.1', description: 'Decimal string' })
  @AmountField('amountFrom', {
    typeMessage: 'amountFrom is required: a decimal string, e.g. "0.1".',
  })
  amountFrom: string;

  @ApiPropertyOptional({ enum: SWAP_MODES, default: DEFAULT_SWAP_MODE })
  @EnumField('mode', SWAP_MODES, { required: false, message: 'mode must be float or fixed.' })
  mode?: SwapMode;
}
