import { StringField } from '../../common/string-field.decorator.js';
import { TickerField } from '../../common/ticker.decorator.js';

export class PublicQuoteQueryDto {
  @TickerField('from', 'btc')
  from: string;

  @TickerField('to', 'eth')
  to: string;

  @StringField('amount', {
    maxLength: 64,
    required: false,
    typeMessage: 'amount must be a decimal string.',
    api: { example: '1', default: '1' },
  })
  amount?: string;
}
