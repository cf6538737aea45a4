import { Column, Entity, PrimaryColumn } from 'typeorm';
import { BIGINT_AS_NUMBER } from './bigint-number.transformer.js';

/** A dashboard user's TOTP authenticator. Unconfirmed while enrolment waits for its first code. */
@Entity({ name: 'dashboard_totp' })
export class DashboardTotpEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId: string;

  /** The base32 secret, sealed like credential secrets but under a key of its own. */
  @Column({ name: 'secret_ciphertext', type: 'text' })
  secretCiphertext: string;

  @Column({ name: 'confirmed_at', type: 'timestamptz', nullable: true })
  confirmedAt: Date | null;

  /** The RFC 6238 time step of the last accepted code; a code of that step or earlier is refused. */
  @Column({
    name: 'last_used_step',
    type: 'bigint',
    nullable: true,
    transformer: BIGINT_AS_NUMBER,
  })
  lastUsedStep: number | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
