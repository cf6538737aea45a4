import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One partner fee earned on one finished swap; unique per swap so it is booked exactly once. */
@Entity({ name: 'earnings_ledger' })
export class EarningsEntryEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'organization_id', type: 'uuid' })
  organizationId: string;

  @Column({ name: 'swap_id', type: 'varchar', length: 64, unique: true })
  swapId: string;

  @Column({ name: 'fee_percent', type: 'numeric' })
  feePercent: string;

  @Column({ name: 'amount_actual_from', type: 'numeric' })
  amountActualFrom: string;

  @Column({ name: 'from_ticker', type: 'varchar', length: 32 })
  from: string;

  @Column({ name: 'usd_price', type: 'numeric' })
  usdPrice: string;

  @Column({ name: 'amount_usd', type: 'numeric' })
  amountUsd: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
