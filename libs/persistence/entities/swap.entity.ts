import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ProviderName, SwapMode, SwapStatus } from '#app/domain';

/** A swap as stored. Amounts are decimal strings (Postgres `numeric`, read back as strings). */
@Entity({ name: 'swaps' })
export class SwapEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id: string;

  @Column({ name: 'organization_id', type: 'uuid' })
  organizationId: string;

  @Column({ name: 'credential_id', type: 'uuid', nullable: true })
  credentialId: string | null;

  @Column({ name: 'idempotency_key', type: 'varchar', length: 64, nullable: true })
  idempotencyKey: string | null;

  /** The liquidity provider it lives at; operators see it, partners never do. */
  @Column({ type: 'varchar', length: 16 })
  provider: ProviderName;

  /** The provider's own transaction id; used only towards the provider. */
  @Column({ name: 'provider_transaction_id', type: 'varchar', length: 128, nullable: true })
  providerTransactionId: string | null;

  @Column({ type: 'varchar', length: 16 })
  status: SwapStatus;

  /**
   * False for a test-mode swap: made against the sandbox, never earning (docs/decisions.md, "Test
   * mode").
   */
  @Column({ type: 'boolean', default: true })
  livemode: boolean;

  @Column({ type: 'varchar', length: 8 })
  mode: SwapMode;

  @Column({ name: 'from_ticker', type: 'varchar', length: 32 })
  from: string;

  @Column({ name: 'to_ticker', type: 'varchar', length: 32 })
  to: string;

  @Column({ name: 'amount_from', type: 'numeric' })
  amountFrom: string;

  @Column({ name: 'amount_expected_to', type: 'numeric', nullable: true })
  amountExpectedTo: string | null;

  /**
   * What the provider promised to pay out when it took the swap, before our partner fee: its
   * fidelity compares the payout with this (docs/decisions.md, "Liquidity routing across
   * providers"). Null for swaps from before routing and for imported ones.
   */
  @Column({ name: 'provider_expected_to', type: 'numeric', nullable: true })
  providerExpectedTo: string | null;

  @Column({ name: 'amount_actual_from', type: 'numeric', nullable: true })
  amountActualFrom: string | null;

  @Column({ name: 'amount_actual_to', type: 'numeric', nullable: true })
  amountActualTo: string | null;

  @Column({ name: 'network_fee', type: 'numeric', nullable: true })
  networkFee: string | null;

  @Column({ name: 'actual_network_fee', type: 'numeric', nullable: true })
  actualNetworkFee: string | null;

  @Column({ type: 'numeric', nullable: true })
  rate: string | null;

  @Column({ name: 'amount_anomaly_pct', type: 'numeric', nullable: true })
  amountAnomalyPct: string | null;

  @Column({ name: 'payin_address', type: 'varchar', length: 256 })
  payinAddress: string;

  @Column({ name: 'payout_address', type: 'varchar', length: 256 })
  payoutAddress: string;

  @Column({ name: 'refund_address', type: 'varchar', length: 256, nullable: true })
  refundAddress: string | null;

  @Column({ name: 'payin_hash', type: 'varchar', length: 256, nullable: true })
  payinHash: string | null;

  @Column({ name: 'payout_hash', type: 'varchar', length: 256, nullable: true })
  payoutHash: string | null;

  @Column({ name: 'refund_hash', type: 'varchar', length: 256, nullable: true })
  refundHash: string | null;

  @Column({ name: 'money_received_at', type: 'timestamptz', nullable: true })
  moneyReceivedAt: Date | null;

  @Column({ name: 'money_sent_at', type: 'timestamptz', nullable: true })
  moneySentAt: Date | null;

  @Column({ name: 'partner_reference_id', type: 'varchar', length: 120, nullable: true })
  partnerReferenceId: string | null;

  @Column({ name: 'pay_till', type: 'timestamptz', nullable: true })
  payTill: Date | null;

  @Column({ name: 'fixed_rate_id', type: 'varchar', length: 64, nullable: true })
  fixedRateId: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  /** When the poller last confirmed this swap's status with the provider. */
  @Column({ name: 'last_seen_at', type: 'timestamptz', nullable: true })
  lastSeenAt: Date | null;

  /** Not asked for by id before this time (a failed refresh waits an interval); null once terminal. */
  @Column({ name: 'next_poll_at', type: 'timestamptz', nullable: true })
  nextPollAt: Date | null;

  @Column({ name: 'lease_owner', type: 'varchar', length: 128, nullable: true })
  leaseOwner: string | null;

  @Column({ name: 'lease_until', type: 'timestamptz', nullable: true })
  leaseUntil: Date | null;
}
