import { ApiProperty } from '@nestjs/swagger';
import { PROVIDER_NAMES, type ProviderName } from '#app/domain';
import type { OperatorSwapView } from '#app/swaps';
import { SwapResource } from '../../platform/contract/swap.response.js';

/** A swap as operators read it: the partner's Swap and where it lives. */
export class OperatorSwapResource extends SwapResource implements OperatorSwapView {
  @ApiProperty({ enum: PROVIDER_NAMES, description: 'The liquidity provider it was created at.' })
  provider: ProviderName;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "The provider's own transaction id (null for an import that had none).",
  })
  providerTransactionId: string | null;

  @ApiProperty({ format: 'uuid' })
  organizationId: string;
}

export class OperatorSwapResponse {
  @ApiProperty({ type: OperatorSwapResource })
  swap: OperatorSwapResource;
}
