import { ApiProperty } from '@nestjs/swagger';
import { SwapResource } from '../../../platform/contract/swap.response.js';

/** The Swap resource, and the refund's hash the widget's "Refunded" screen shows. */
export class WidgetSwapResource extends SwapResource {
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "The refund's transaction hash, once a refunded deposit went back.",
  })
  refundHash: string | null;
}

export class WidgetSwapResponse {
  @ApiProperty({ type: WidgetSwapResource })
  swap: WidgetSwapResource;
}

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
