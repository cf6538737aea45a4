import { TickerField } from './ticker.decorator.js';

export class PairQueryDto {
  @TickerField('from', 'btc')
  from: string;

  @TickerField('to', 'eth')
  to: string;
}
