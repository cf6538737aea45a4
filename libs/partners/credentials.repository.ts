import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { OwnerScope } from '#app/domain';
import { CredentialEntity, EntityColumns, PreparedReads, queryRows } from '#app/persistence';
import { resealOrNull, type CredentialCipher, type ResealCount } from './credential.cipher.js';
import type { AuthenticatedPartner } from './partner.js';

/** An active credential and the organization state authentication needs. */
export interface CredentialForAuthentication {
  partner: AuthenticatedPartner;
  secretDigest: string;
  /** When a rolled credential stops authenticating; null for one that does not expire. */
  expiresAt: Date | null;
}

export type NewCredential = Pick<
  CredentialEntity,
  'organizationId' | 'mode' | 'publicKey' | 'secretCiphertext' | 'secretDigest'
> &
  Partial<Pick<CredentialEntity, 'name'>>;

/** The values of `public_key = $1 AND organization_id = $2 AND mode = $3`. */
function ownedBy(publicKey: string, owner: OwnerScope): unknown[] {
  return [publicKey, owner.organizationId, owner.livemode ? 'live' : 'test'];
}

const AUTHENTICATION_SQL = `SELECT c.id AS "credentialId", c.public_key AS "publicKey",
       c.organization_id AS "organizationId", c.mode = 'live' AS livemode,
       o.status AS "organizationStatus", o.fee_percent AS "feePercent",
       o.provider_activated AS "providerActivated", c.secret_digest AS "secretDigest",
       c.expires_at AS "expiresAt"
  FROM credentials c JOIN organizations o ON o.id = c.organization_id
 WHERE c.public_key = $1 AND c.revoked_at IS NULL
   AND (c.expires_at IS NULL OR c.expires_at > now())`;

/** The only writer of `credentials`; authentication reads through one prepared statement. */
@Injectable()
export class CredentialsRepository {
  private readonly columns: EntityColumns<CredentialEntity>;
  private readonly prepared: PreparedReads;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.columns = new EntityColumns(dataSource, CredentialEntity);
    this.prepared = new PreparedReads(dataSource);
  }

  /**
   * Re-seals every secret still sealed the former way (one key, no row bound) for its row, in
   * one transaction; processes starting together take turns. A secret that does not open (not
   * sealed with this master key) is left as it is and counted apart.
   */
  async resealFormer(cipher: CredentialCipher): Promise<ResealCount> {
    return this.dataSource.transaction(async (manager) => {
      await queryRows(manager, `SELECT pg_advisory_xact_lock(hashtext('reseal:credentials'))`);
      const rows = await queryRows<{ public_key: string; secret_ciphertext: string }>(
        manager,
        `SELECT public_key, secret_ciphertext FROM credentials
          WHERE secret_ciphertext NOT LIKE 'v2.%' FOR UPDATE`,
      );
      const count = { resealed: 0, unreadable: 0 };
      for (const row of rows) {
        const binding = { purpose: 'credential', rowId: row.public_key } as const;
        const resealed = resealOrNull(cipher, row.secret_ciphertext, binding);
        if (resealed === null) {
          count.unreadable += 1;
          continue;
        }
        await queryRows(
          manager,
          `UPDATE credentials SET secret_ciphertext = $2 WHERE public_key = $1`,
          [row.public_key, resealed],
        );
        count.resealed += 1;
      }
      return count;
    });
  }

  create(credential: NewCredential): Promise<CredentialEntity> {
    return this.columns.insert(this.dataSource, credential);
  }

  findByPublicKey(publicKey: string): Promise<CredentialEntity | null> {
    return this.columns.readOne(
      this.dataSource,
      `SELECT ${this.columns.list} FROM credentials WHERE public_key = $1`,
      [publicKey],
    );
  }

  /** An unrevoked, unexpired credential with its organization's state, in one prepared read. */
  async findActiveForAuthentication(
    publicKey: string,
  ): Promise<CredentialForAuthentication | null> {
    const rows = await this.prepared.rows<
      AuthenticatedPartner & { secretDigest: string; expiresAt: Date | null }
    >('credential-for-authentication', AUTHENTICATION_SQL, [publicKey]);
    const row = rows[0];
    if (!row) {
      return null;
    }
    const { secretDigest, expiresAt, ...partner } = row;
    return { partner, secretDigest, expiresAt };
  }

  /** The owner's credential `publicKey` (its organization and mode), or null. */
  findForOwner(publicKey: string, owner: OwnerScope): Promise<CredentialEntity | null> {
    return this.columns.readOne(
      this.dataSource,
      `SELECT ${this.columns.list} FROM credentials
        WHERE public_key = $1 AND organization_id = $2 AND mode = $3`,
      ownedBy(publicKey, owner),
    );
  }

  /** The owner's credentials, newest first, revoked and expired ones included. */
  listForOwner(owner: OwnerScope): Promise<CredentialEntity[]> {
    return this.columns.read(
      this.dataSource,
      `SELECT ${this.columns.list} FROM credentials WHERE organization_id = $1 AND mode = $2
        ORDER BY created_at DESC, id`,
      [owner.organizationId, owner.livemode ? 'live' : 'test'],
    );
  }

  /**
   * Stores `replacement` and makes `publicKey` expire at `expiresAt`, in one transaction, if the
   * owner's credential is still unrevoked and not already rolled. Null when it was not.
   */
  async roll(
    publicKey: string,
    owner: OwnerScope,
    replacement: NewCredential,
    expiresAt: Date,
  ): Promise<CredentialEntity | null> {
    return this.dataSource.transaction(async (manager) => {
      const rolled = await queryRows(
        manager,
        `UPDATE credentials SET expires_at = $4
          WHERE public_key = $1 AND organization_id = $2 AND mode = $3
            AND revoked_at IS NULL AND expires_at IS NULL
          RETURNING id`,
        [...ownedBy(publicKey, owner), expiresAt],
      );
      return rolled.length === 0 ? null : this.columns.insert(manager, replacement);
    });
  }

  /** Notes that the credential authenticated a request now. */
  async noteUsed(credentialId: string): Promise<void> {
    await queryRows(this.dataSource, `UPDATE credentials SET last_used_at = now() WHERE id = $1`, [
      credentialId,
    ]);
  }

  listForOrganization(organizationId: string): Promise<CredentialEntity[]> {
    return this.columns.read(
      this.dataSource,
      `SELECT ${this.columns.list} FROM credentials WHERE organization_id = $1
        ORDER BY created_at`,
      [organizationId],
    );
  }

  /** Returns false when the key is unknown or already revoked. */
  async revoke(publicKey: string): Promise<boolean> {
    const rows = await queryRows(
      this.dataSource,
      `UPDATE credentials SET revoked_at = $2
        WHERE public_key = $1 AND revoked_at IS NULL RETURNING id`,
      [publicKey, new Date()],
    );
    return rows.length > 0;
  }

  /** The same, for the owner's credential only. */
  async revokeForOwner(publicKey: string, owner: OwnerScope): Promise<boolean> {
    const rows = await queryRows(
      this.dataSource,
      `UPDATE credentials SET revoked_at = $4
        WHERE public_key = $1 AND organization_id = $2 AND mode = $3 AND revoked_at IS NULL
        RETURNING id`,
      [...ownedBy(publicKey, owner), new Date()],
    );
    return rows.length > 0;
  }
}
