import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ProviderName } from '#app/domain';

/**
 * Every fixed `rateId` handed out (docs/decisions.md, "Fixed rate ids"); single use, bound to org,
 * pair and amount.
 */
@Entity({ name: 'fixed_rates' })
export class FixedRateEntity {
  @PrimaryColumn({ type: 'varchar', length: 128 })
  id: string;

  /** The liquidity provider it lives at; operators see it, partners never do. */
  @Column({ type: 'varchar', length: 16 })
  provider: ProviderName;

  @Column({ name: 'provider_rate_id', type: 'varchar', length: 128 })
  providerRateId: string;

  @Column({ name: 'organization_id', type: 'uuid' })
  organizationId: string;

  /** A rate quoted to a test credential redeems only in test mode, and a live one only live. */
  @Column({ type: 'boolean', default: true })
  livemode: boolean;

  @Column({ name: 'from_ticker', type: 'varchar', length: 32 })
  from: string;

  @Column({ name: 'to_ticker', type: 'varchar', length: 32 })
  to: string;

  @Column({ name: 'amount_from', type: 'numeric' })
  amountFrom: string;

  @Column({ name: 'amount_to', type: 'numeric' })
  amountTo: string;

  @Column({ name: 'network_fee', type: 'numeric' })
  networkFee: string;

  @Column({ type: 'numeric' })
  rate: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @Column({ name: 'swap_id', type: 'varchar', length: 64, nullable: true })
  swapId: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
