import { ApiProperty } from '@nestjs/swagger';
import { SWAP_MODES } from '#app/domain';

export class QuoteView {
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
  @ApiProperty({ enum: SWAP_MODES }) mode: string;
  @ApiProperty({ type: 'string', nullable: true }) rateId: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) expiresAt: string | null;
}

export class QuoteResponse {
  @ApiProperty({ type: QuoteView }) quote: QuoteView;
}
