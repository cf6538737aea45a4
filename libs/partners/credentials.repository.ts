import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, IsNull, Repository } from 'typeorm';
import type { OwnerScope } from '#app/domain';
import { CredentialEntity, PreparedReads } from '#app/persistence';
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

function ownedBy(owner: OwnerScope) {
  return { organizationId: owner.organizationId, mode: owner.livemode ? 'live' : 'test' } as const;
}

const AUTHENTICATION_SQL = `SELECT c.id AS "credentialId", c.public_key AS "publicKey",
       c.organization_id AS "organizationId", c.mode = 'live' AS livemode,
       o.status AS "organizationStatus", o.fee_percent AS "feePercent",
       o.provider_activated AS "providerActivated", c.secret_digest AS "secretDigest",
       c.expires_at AS "expiresAt"
  FROM credentials c JOIN organizations o ON o.id = c.organization_id
 WHERE c.public_key = $1 AND c.revoked_at IS NULL
   AND (c.expires_at IS NULL OR c.expires_at > now())`;

@Injectable()
export class CredentialsRepository {
  private readonly prepared: PreparedReads;

  constructor(
    @InjectRepository(CredentialEntity) private readonly repository: Repository<CredentialEntity>,
    @InjectDataSource() dataSource: DataSource,
  ) {
    this.prepared = new PreparedReads(dataSource);
  }

  create(credential: NewCredential): Promise<CredentialEntity> {
    return this.repository.save(this.repository.create(credential));
  }

  findByPublicKey(publicKey: string): Promise<CredentialEntity | null> {
    return this.repository.findOneBy({ publicKey });
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
    return this.repository.findOneBy({ publicKey, ...ownedBy(owner) });
  }

  /** The owner's credentials, newest first, revoked and expired ones included. */
  listForOwner(owner: OwnerScope): Promise<CredentialEntity[]> {
    return this.repository.find({
      where: ownedBy(owner),
      order: { createdAt: 'DESC', id: 'ASC' },
    });
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
    return this.repository.manager.transaction(async (manager) => {
      const repository = manager.getRepository(CredentialEntity);
      const result = await repository.update(
        { publicKey, ...ownedBy(owner), revokedAt: IsNull(), expiresAt: IsNull() },
        { expiresAt },
      );
      if ((result.affected ?? 0) === 0) {
        return null;
      }
      return repository.save(repository.create(replacement));
    });
  }

  /** Notes that the credential authenticated a request now. */
  async noteUsed(credentialId: string): Promise<void> {
    await this.repository.update({ id: credentialId }, { lastUsedAt: () => 'now()' });
  }

  listForOrganization(organizationId: string): Promise<CredentialEntity[]> {
    return this.repository.find({ where: { organizationId }, order: { createdAt: 'ASC' } });
  }

  /** Returns false when the key is unknown or already revoked. */
  async revoke(publicKey: string): Promise<boolean> {
    const result = await this.repository.update(
      { publicKey, revokedAt: IsNull() },
      { revokedAt: new Date() },
    );
    return (result.affected ?? 0) > 0;
  }

  /** The same, for the owner's credential only. */
  async revokeForOwner(publicKey: string, owner: OwnerScope): Promise<boolean> {
    const result = await this.repository.update(
      { publicKey, ...ownedBy(owner), revokedAt: IsNull() },
      { revokedAt: new Date() },
    );
    return (result.affected ?? 0) > 0;
  }
}
