import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One single-use recovery code of a dashboard user; only its keyed digest is kept. */
@Entity({ name: 'dashboard_recovery_codes' })
export class DashboardRecoveryCodeEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ name: 'code_digest', type: 'char', length: 64 })
  codeDigest: string;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
