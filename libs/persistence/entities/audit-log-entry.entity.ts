import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Who did what, when. Never holds a secret. */
@Entity({ name: 'audit_log' })
export class AuditLogEntryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ type: 'varchar', length: 128 })
  actor: string;

  @Column({ type: 'varchar', length: 64 })
  action: string;

  @Column({ name: 'target_type', type: 'varchar', length: 32 })
  targetType: string;

  @Column({ name: 'target_id', type: 'varchar', length: 128 })
  targetId: string;

  /** The organization the entry concerns, so it can read its own log; null for operator-wide entries. */
  @Column({ name: 'organization_id', type: 'uuid', nullable: true })
  organizationId: string | null;

  @Column({ type: 'jsonb', nullable: true })
  details: Record<string, unknown> | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
