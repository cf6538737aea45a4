import { AmountField } from '../../common/amount.decorator.js';
import { TickerField } from '../../common/ticker.decorator.js';

export class PublicQuoteQueryDto {
  @TickerField('from', 'btc')
  from: string;

  @TickerField('to', 'eth')
  to: string;

  @AmountField('amount', {
    required: false,
    typeMessage: 'amount must be a decimal string.',
    api: { example: '1', default: '1' },
  })
  amount?: string;
}
