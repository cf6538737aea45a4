import { ApiProperty } from '@nestjs/swagger';
import { SWAP_MODES, SWAP_STATUSES, type SwapMode, type SwapStatus } from '#app/domain';
import type { SwapView } from '#app/swaps';

const nullableString = { type: 'string', nullable: true } as const;
const nullableDate = { type: 'string', format: 'date-time', nullable: true } as const;

/** The spec's Swap resource; `implements` keeps it in step with what the service returns. */
export class SwapResource implements SwapView {
  @ApiProperty({ example: '9f86d081884c7d65' }) id: string;
  @ApiProperty() providerSwapId: string;
  @ApiProperty({ enum: SWAP_STATUSES }) status: SwapStatus;
  @ApiProperty({ enum: SWAP_MODES }) mode: SwapMode;
  @ApiProperty({ description: 'False for a test-mode swap, made with a `pk_test_` credential.' })
  livemode: boolean;
  @ApiProperty() from: string;
  @ApiProperty() to: string;
  @ApiProperty() amountFrom: string;
  @ApiProperty() amountExpectedFrom: string;
  @ApiProperty() amountExpectedTo: string;
  @ApiProperty(nullableString) amountActualFrom: string | null;
  @ApiProperty(nullableString) amountActualTo: string | null;
  @ApiProperty(nullableString) networkFee: string | null;
  @ApiProperty(nullableString) actualNetworkFee: string | null;
  @ApiProperty(nullableString) rate: string | null;
  @ApiProperty() payinAddress: string;
  @ApiProperty() payoutAddress: string;
  @ApiProperty(nullableString) refundAddress: string | null;
  @ApiProperty(nullableString) payinHash: string | null;
  @ApiProperty(nullableString) payoutHash: string | null;
  @ApiProperty(nullableDate) moneyReceivedAt: string | null;
  @ApiProperty(nullableDate) moneySentAt: string | null;
  @ApiProperty(nullableString) amountAnomalyPct: string | null;
  @ApiProperty(nullableString) partnerReferenceId: string | null;
  @ApiProperty(nullableDate) payTill: string | null;
  @ApiProperty({ type: 'string', format: 'date-time' }) createdAt: string;
}

export class SwapResponse {
  @ApiProperty({ type: SwapResource }) swap: SwapResource;
}

export class SwapListResponse {
  @ApiProperty({ type: [SwapResource] }) swaps: SwapResource[];
}
