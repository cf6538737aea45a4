import { ApiProperty } from '@nestjs/swagger';
import type { EarningsEntryEntity, PayoutEntity } from '#app/persistence';
import type { EarningsStatement } from '#app/earnings';

export class EarningsEntryView {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  swapId: string;

  @ApiProperty({ example: '1', description: 'Fee percent applied, decimal string.' })
  feePercent: string;

  @ApiProperty({ example: '0.12', description: 'Amount received, in `from`.' })
  amountActualFrom: string;

  @ApiProperty({ example: 'btc' })
  from: string;

  @ApiProperty({ example: '65000', description: 'USD per unit of `from` when the swap finished.' })
  usdPrice: string;

  @ApiProperty({ example: '78', description: 'Fee earned, in USD.' })
  amountUsd: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class PayoutView {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: '130.5' })
  amountUsd: string;

  @ApiProperty({ example: 'usdt' })
  asset: string;

  @ApiProperty({ enum: ['trc20', 'erc20'] })
  network: string;

  @ApiProperty({ type: String, nullable: true })
  address: string | null;

  @ApiProperty({ enum: ['due', 'paid'] })
  status: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class EarningsView {
  @ApiProperty({ format: 'uuid' })
  organizationId: string;

  @ApiProperty({ example: '42.5', description: 'Earned and not yet in a payout, USD.' })
  balanceUsd: string;

  @ApiProperty({ example: '100' })
  payoutThresholdUsd: string;

  @ApiProperty({ type: [EarningsEntryView], description: 'Newest first.' })
  entries: EarningsEntryView[];

  @ApiProperty({ type: [PayoutView], description: 'Newest first.' })
  payouts: PayoutView[];
}

export class EarningsResponse {
  @ApiProperty({ type: EarningsView })
  earnings: EarningsView;
}

function toEntryView(entry: EarningsEntryEntity): EarningsEntryView {
  return {
    id: entry.id,
    swapId: entry.swapId,
    feePercent: entry.feePercent,
    amountActualFrom: entry.amountActualFrom,
    from: entry.from,
    usdPrice: entry.usdPrice,
    amountUsd: entry.amountUsd,
    createdAt: entry.createdAt.toISOString(),
  };
}

function toPayoutView(payout: PayoutEntity): PayoutView {
  return {
    id: payout.id,
    amountUsd: payout.amountUsd,
    asset: payout.asset,
    network: payout.network,
    address: payout.address,
    status: payout.status,
    createdAt: payout.createdAt.toISOString(),
  };
}

export function toEarningsView(statement: EarningsStatement): EarningsView {
  return {
    organizationId: statement.organizationId,
    balanceUsd: statement.balanceUsd,
    payoutThresholdUsd: statement.payoutThresholdUsd,
    entries: statement.entries.map(toEntryView),
    payouts: statement.payouts.map(toPayoutView),
  };
}
