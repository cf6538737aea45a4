import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type IdempotencyState = 'pending' | 'completed';

/** Source of truth for `POST /v1/swaps` deduplication (docs/decisions.md, "Idempotency keys"). */
@Entity({ name: 'idempotency_keys' })
export class IdempotencyKeyEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'credential_id', type: 'uuid' })
  credentialId: string;

  @Column({ type: 'varchar', length: 64 })
  key: string;

  /** SHA-256 of the canonical JSON body, hex. */
  @Column({ type: 'varchar', length: 64 })
  fingerprint: string;

  @Column({ type: 'varchar', length: 16 })
  state: IdempotencyState;

  @Column({ name: 'swap_id', type: 'varchar', length: 64, nullable: true })
  swapId: string | null;

  /** What was sent upstream, so a lost answer can be reconciled before another create. */
  @Column({ name: 'upstream_attempt', type: 'jsonb', nullable: true })
  upstreamAttempt: Record<string, unknown> | null;

  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
