import { ApiProperty } from '@nestjs/swagger';
import { SwapResource } from '../../../platform/contract/swap.response.js';

export class WidgetSwapCreatedResponse {
  @ApiProperty({ type: SwapResource })
  swap: SwapResource;

  @ApiProperty({
    description:
      'Opaque, at least 128 bits: send it as `X-Swap-Token` to read this swap. Shown to whoever ' +
      'created the swap; the service keeps only its hash.',
  })
  statusToken: string;
}
