import { ApiPropertyOptional } from '@nestjs/swagger';
import { AmountField } from '#app/input';
import { TickerField } from '../../../platform/contract/ticker.decorator.js';

export class PublicQuoteQueryDto {
  @TickerField('from', 'btc')
  from: string;

  @TickerField('to', 'eth')
  to: string;

  @ApiPropertyOptional({ example: '1', default: '1' })
  @AmountField('amount', { required: false, typeMessage: 'amount must be a decimal string.' })
  amount?: string;
}
