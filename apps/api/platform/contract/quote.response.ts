import { ApiProperty } from '@nestjs/swagger';
import { SWAP_MODES, type SwapMode } from '#app/domain';
import type { Quote } from '#app/quotes';

/** The spec's Quote resource, kept in step with the service's `Quote`. */
export class QuoteView implements Quote {
  @ApiProperty() from: string;
  @ApiProperty() to: string;
  @ApiProperty() amountFrom: string;
  @ApiProperty({ description: 'Gross payout before networkFee' }) amountTo: string;
  @ApiProperty() networkFee: string;
  @ApiProperty({ description: 'amountTo minus networkFee' }) amountUserReceives: string;
  @ApiProperty() rate: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'Float quotes only' }) fee:
    string | null;
  @ApiProperty() min: string;
  @ApiProperty() max: string;
  @ApiProperty({ enum: SWAP_MODES }) mode: SwapMode;
  @ApiProperty({ type: 'string', nullable: true }) rateId: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) expiresAt: string | null;
}

export class QuoteResponse {
  @ApiProperty({ type: QuoteView }) quote: QuoteView;
}
