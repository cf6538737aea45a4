import { Column, Entity, PrimaryColumn } from 'typeorm';

/** What a WebAuthn ceremony is for. */
export type WebAuthnPurpose = 'register' | 'sign_in' | 'second_factor' | 'reauth';

/**
 * A WebAuthn challenge in flight: at most one per browser (binding) and purpose, single use,
 * valid until `expiresAt`.
 */
@Entity({ name: 'dashboard_webauthn_challenges' })
export class DashboardWebAuthnChallengeEntity {
  /** SHA-256 (hex) of the caller's binding, so no session id is stored as it is. */
  @PrimaryColumn({ type: 'char', length: 64 })
  binding: string;

  @PrimaryColumn({ type: 'varchar', length: 16 })
  purpose: WebAuthnPurpose;

  @Column({ type: 'varchar', length: 128 })
  challenge: string;

  /** The user the ceremony is for; null for a passkey sign-in, where the passkey names the user. */
  @Column({ name: 'user_id', type: 'uuid', nullable: true })
  userId: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
