import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type PayoutStatus = 'due' | 'paid';

/** A partner payout in USDT, due once the earnings balance reaches the threshold. */
@Entity({ name: 'payouts' })
export class PayoutEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'organization_id', type: 'uuid' })
  organizationId: string;

  @Column({ name: 'amount_usd', type: 'numeric' })
  amountUsd: string;

  @Column({ type: 'varchar', length: 16, default: 'usdt' })
  asset: string;

  @Column({ type: 'varchar', length: 16 })
  network: string;

  @Column({ type: 'varchar', length: 128, nullable: true })
  address: string | null;

  @Column({ type: 'varchar', length: 16 })
  status: PayoutStatus;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
