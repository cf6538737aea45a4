import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { CredentialMode } from '#app/domain';

/** A partner API credential. The secret is kept encrypted (to reveal) and as a keyed digest (to verify). */
@Entity({ name: 'credentials' })
export class CredentialEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'organization_id', type: 'uuid' })
  organizationId: string;

  @Column({ name: 'public_key', type: 'varchar', length: 64, unique: true })
  publicKey: string;

  /** AES-256-GCM: iv (12) | tag (16) | ciphertext, base64. */
  @Column({ name: 'secret_ciphertext', type: 'text' })
  secretCiphertext: string;

  /** HMAC-SHA256 of the secret under a key derived from CREDENTIAL_ENCRYPTION_KEY, hex. */
  @Column({ name: 'secret_digest', type: 'varchar', length: 64 })
  secretDigest: string;

  @Column({ type: 'varchar', length: 8, default: 'live' })
  mode: CredentialMode;

  /** Given in the dashboard; null for credentials an operator issued. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  name: string | null;

  /** When it last authenticated a request, to the minute (written at most once a minute). */
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  /** Set when the credential is rolled: from then on it authenticates nothing. */
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
