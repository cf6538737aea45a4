import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { CredentialMode } from '#app/domain';

/** A publishable key that lets the swap widget run on the origins it lists. */
@Entity({ name: 'widget_keys' })
export class WidgetKeyEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** `wk_live_…` or `wk_test_…`, unique. */
  @Column({ type: 'varchar', length: 48, unique: true })
  key: string;

  @Column({ name: 'organization_id', type: 'uuid' })
  organizationId: string;

  @Column({ type: 'varchar', length: 8 })
  mode: CredentialMode;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** Exact origins (`scheme://host[:port]`), 1 to 20 of them. */
  @Column({ name: 'allowed_origins', type: 'text', array: true })
  allowedOrigins: string[];

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
