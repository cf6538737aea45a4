import { ApiProperty } from '@nestjs/swagger';
import type { ResolvedPair } from '#app/catalogue';

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

  static of({ from, to, params }: ResolvedPair): PairResponse {
    return {
      pair: {
        from: from.ticker,
        to: to.ticker,
        minAmountFloat: params.minAmountFloat,
        maxAmountFloat: params.maxAmountFloat,
        minAmountFixed: params.minAmountFixed,
        maxAmountFixed: params.maxAmountFixed,
      },
    };
  }
}
