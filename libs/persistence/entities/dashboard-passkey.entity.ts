import { Column, Entity, PrimaryColumn } from 'typeorm';
import { BIGINT_AS_NUMBER } from './bigint-number.transformer.js';

/** A WebAuthn credential (passkey) of a dashboard user. */
@Entity({ name: 'dashboard_passkeys' })
export class DashboardPasskeyEntity {
  /** The credential id, base64url, as the authenticator chose it; unique across all users. */
  @PrimaryColumn({ type: 'varchar', length: 1400 })
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  /** COSE-encoded public key. */
  @Column({ name: 'public_key', type: 'bytea' })
  publicKey: Buffer;

  /** The authenticator's signature counter; 0 for authenticators that keep none. */
  @Column({ type: 'bigint', default: 0, transformer: BIGINT_AS_NUMBER })
  counter: number;

  @Column({ type: 'text', array: true, default: () => `'{}'` })
  transports: string[];

  @Column({ type: 'varchar', length: 64 })
  name: string;

  /** `singleDevice` or `multiDevice` (synced). */
  @Column({ name: 'device_type', type: 'varchar', length: 16 })
  deviceType: string;

  @Column({ name: 'backed_up', type: 'boolean' })
  backedUp: boolean;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;
}
