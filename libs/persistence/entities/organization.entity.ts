import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { OrganizationStatus, PayoutNetwork } from '#app/domain';

@Entity({ name: 'organizations' })
export class OrganizationEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  /** Decimal string, 0–4 (percent). */
  @Column({ name: 'fee_percent', type: 'numeric' })
  feePercent: string;

  @Column({ type: 'varchar', length: 32 })
  status: OrganizationStatus;

  @Column({ name: 'provider_activated', type: 'boolean', default: false })
  providerActivated: boolean;

  @Column({ name: 'payout_address', type: 'varchar', length: 128, nullable: true })
  payoutAddress: string | null;

  @Column({ name: 'payout_network', type: 'varchar', length: 16, default: 'trc20' })
  payoutNetwork: PayoutNetwork;

  /** When the organization first got a test quote (the dashboard's "Get started" checklist). */
  @Column({ name: 'first_test_quote_at', type: 'timestamptz', nullable: true })
  firstTestQuoteAt: Date | null;

  /** When a webhook first reached one of its endpoints (the "Get started" checklist). */
  @Column({ name: 'first_webhook_delivered_at', type: 'timestamptz', nullable: true })
  firstWebhookDeliveredAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
