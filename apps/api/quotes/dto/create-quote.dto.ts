import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { type SwapMode, DEFAULT_SWAP_MODE, SWAP_MODES } from '#app/domain';
import { AmountField } from '../../common/amount.decorator.js';
import { TickerField } from '../../common/ticker.decorator.js';

export class CreateQuoteDto {
  @TickerField('from', 'btc')
  from: string;

  @TickerField('to', 'eth')
  to: string;

  @AmountField('amountFrom', {
    typeMessage: 'amountFrom is required: a decimal string, e.g. "0.1".',
    api: { example: '0.1', description: 'Decimal string' },
  })
  amountFrom: string;

  @ApiPropertyOptional({ enum: SWAP_MODES, default: DEFAULT_SWAP_MODE })
  @IsOptional()
  @IsIn(SWAP_MODES, { message: 'mode must be float or fixed.' })
  mode?: SwapMode;
}
