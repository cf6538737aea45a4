import { ApiProperty } from '@nestjs/swagger';

export class PublicQuoteView {
  @ApiProperty() from: string;
  @ApiProperty() to: string;
  @ApiProperty() amountFrom: string;
  @ApiProperty() amountTo: string;
  @ApiProperty() networkFee: string;
  @ApiProperty() amountUserReceives: string;
  @ApiProperty() rate: string;
  @ApiProperty() min: string;
  @ApiProperty() max: string;
  @ApiProperty({ example: 'float' }) rateType: string;
  @ApiProperty() feeNote: string;
}

export class PublicQuoteResponse {
  @ApiProperty({ type: PublicQuoteView }) quote: PublicQuoteView;
}
