import { TickerField } from '../../common/ticker.decorator.js';

export class PairQuery {
  @TickerField('from', 'btc')
  from: string;

  @TickerField('to', 'eth')
  to: string;
}
