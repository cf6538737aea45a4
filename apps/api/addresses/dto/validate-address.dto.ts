import { StringField } from '../../common/string-field.decorator.js';
import { TickerField } from '../../common/ticker.decorator.js';

export class ValidateAddressDto {
  @TickerField('currency', 'btc')
  currency: string;

  @StringField('address', {
    maxLength: 256,
    notEmpty: true,
    typeMessage: 'address is required: the wallet address to check.',
    api: { example: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
  })
  address: string;
}
