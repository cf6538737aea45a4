import { ApiProperty } from '@nestjs/swagger';
import { StringField } from '#app/input';
import { TickerField } from './ticker.decorator.js';

export class ValidateAddressDto {
  @TickerField('currency', 'btc')
  currency: string;

  @ApiProperty({ example: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' })
  @StringField('address', {
    maxLength: 256,
    notEmpty: true,
    typeMessage: 'address is required: the wallet address to check.',
  })
  address: string;
}
