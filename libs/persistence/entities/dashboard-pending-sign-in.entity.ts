import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A sign-in whose password was right and whose second factor is still to come. */
@Entity({ name: 'dashboard_pending_sign_ins' })
export class DashboardPendingSignInEntity {
  /** SHA-256 (hex) of the token the browser holds. */
  @PrimaryColumn({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
