import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { type SwapMode, DEFAULT_SWAP_MODE, SWAP_MODES } from '#app/domain';
import { AmountField } from '../../common/amount.decorator.js';
import { StringField } from '../../common/string-field.decorator.js';
import { TickerField } from '../../common/ticker.decorator.js';

export class CreateSwapDto {
  @TickerField('from', 'btc')
  from: string;

  @TickerField('to', 'eth')
  to: string;

  @AmountField('amountFrom', {
    typeMessage: 'amountFrom is required: a decimal string, e.g. "0.1".',
    api: { example: '0.1', description: 'Decimal string within the pair bounds for the mode' },
  })
  amountFrom: string;

  @StringField('address', {
    maxLength: 256,
    notEmpty: true,
    typeMessage: 'address is required: the payout wallet on the `to` chain.',
    api: { description: "User's payout wallet on the `to` chain" },
  })
  address: string;

  @StringField('refundAddress', {
    maxLength: 256,
    required: false,
    notEmpty: true,
    emptyMessage: 'refundAddress must not be empty; omit the field instead.',
    api: { description: 'Required for fixed swaps; omit rather than send ""' },
  })
  refundAddress?: string;

  @StringField('partnerReferenceId', { maxLength: 120, required: false })
  partnerReferenceId?: string;

  @ApiPropertyOptional({ enum: SWAP_MODES, default: DEFAULT_SWAP_MODE })
  @IsOptional()
  @IsIn(SWAP_MODES, { message: 'mode must be float or fixed.' })
  mode?: SwapMode;

  @StringField('rateId', {
    maxLength: 128,
    required: false,
    api: { description: 'Token from a fixed quote; required for fixed' },
  })
  rateId?: string;
}
