import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { type SwapMode, DEFAULT_SWAP_MODE, SWAP_MODES } from '#app/domain';
import { AmountField, EnumField, StringField } from '#app/input';
import { TickerField } from './ticker.decorator.js';

export class CreateSwapDto {
  @TickerField('from', 'btc')
  from: string;

  @TickerField('to', 'eth')
  to: string;

  @ApiProperty({
    example: '0.1',
    description: 'Decimal string within the pair bounds for the mode',
  })
  @AmountField('amountFrom', {
    typeMessage: 'amountFrom is required: a decimal string, e.g. "0.1".',
  })
  amountFrom: string;

  @ApiProperty({
    description:
      "User's payout wallet on the `to` chain, in that chain's format (checked with the " +
      'provider before the swap is made: an address it refuses answers 400 `invalid_address`)',
    example: '0x52908400098527886E0F7030069857D2E4169EE7',
  })
  @StringField('address', {
    maxLength: 256,
    notEmpty: true,
    typeMessage: 'address is required: the payout wallet on the `to` chain.',
  })
  address: string;

  @ApiPropertyOptional({
    description:
      'A wallet on the `from` chain for a refund. Required for fixed swaps; omit rather than ' +
      'send ""',
    example: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  })
  @StringField('refundAddress', {
    maxLength: 256,
    required: false,
    notEmpty: true,
    emptyMessage: 'refundAddress must not be empty; omit the field instead.',
  })
  refundAddress?: string;

  @ApiPropertyOptional()
  @StringField('partnerReferenceId', { maxLength: 120, required: false })
  partnerReferenceId?: string;

  @ApiPropertyOptional({ enum: SWAP_MODES, default: DEFAULT_SWAP_MODE })
  @EnumField('mode', SWAP_MODES, { required: false, message: 'mode must be float or fixed.' })
  mode?: SwapMode;

  @ApiPropertyOptional({ description: 'Token from a fixed quote; required for fixed' })
  @StringField('rateId', { maxLength: 128, required: false })
  rateId?: string;
}
