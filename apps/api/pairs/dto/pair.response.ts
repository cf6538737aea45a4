import { ApiProperty } from '@nestjs/swagger';

export class PairView {
  @ApiProperty() from: string;
  @ApiProperty() to: string;
  @ApiProperty({ example: '0.001' }) minAmountFloat: string;
  @ApiProperty({ example: '10' }) maxAmountFloat: string;
  @ApiProperty({ example: '0.002' }) minAmountFixed: string;
  @ApiProperty({ example: '5' }) maxAmountFixed: string;
}

export class PairResponse {
  @ApiProperty({ type: PairView }) pair: PairView;
}
