import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, IsNull, Repository } from 'typeorm';
import { CredentialEntity, PreparedReads } from '#app/persistence';
import { resealOrNull, type CredentialCipher, type ResealCount } from './credential.cipher.js';
import type { AuthenticatedPartner } from './partner.js';

/** An active credential and the organization state authentication needs. */
export interface CredentialForAuthentication {
  partner: AuthenticatedPartner;
  secretDigest: string;
}

const AUTHENTICATION_SQL = `SELECT c.id AS "credentialId", c.public_key AS "publicKey",
       c.organization_id AS "organizationId", c.mode = 'live' AS livemode,
       o.status AS "organizationStatus", o.fee_percent AS "feePercent",
       o.provider_activated AS "providerActivated", c.secret_digest AS "secretDigest"
  FROM credentials c JOIN organizations o ON o.id = c.organization_id
 WHERE c.public_key = $1 AND c.revoked_at IS NULL`;

@Injectable()
export class CredentialsRepository {
  private readonly prepared: PreparedReads;

  constructor(
    @InjectRepository(CredentialEntity) private readonly repository: Repository<CredentialEntity>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    this.prepared = new PreparedReads(dataSource);
  }

  /**
   * Re-seals every secret still sealed the former way (one key, no row bound) for its row, in
   * one transaction; processes starting together take turns. A secret that does not open (not
   * sealed with this master key) is left as it is and counted apart.
   */
  async resealFormer(cipher: CredentialCipher): Promise<ResealCount> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('reseal:credentials'))`);
      const rows = await manager.query<{ public_key: string; secret_ciphertext: string }[]>(
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
        await manager.query(`UPDATE credentials SET secret_ciphertext = $2 WHERE public_key = $1`, [
          row.public_key,
          resealed,
        ]);
        count.resealed += 1;
      }
      return count;
    });
  }

  create(
    credential: Pick<
      CredentialEntity,
      'organizationId' | 'mode' | 'publicKey' | 'secretCiphertext' | 'secretDigest'
    >,
  ): Promise<CredentialEntity> {
    return this.repository.save(this.repository.create(credential));
  }

  findByPublicKey(publicKey: string): Promise<CredentialEntity | null> {
    return this.repository.findOneBy({ publicKey });
  }

  /** An unrevoked credential with its organization's state, in one prepared read. */
  async findActiveForAuthentication(
    publicKey: string,
  ): Promise<CredentialForAuthentication | null> {
    const rows = await this.prepared.rows<AuthenticatedPartner & { secretDigest: string }>(
      'credential-for-authentication',
      AUTHENTICATION_SQL,
      [publicKey],
    );
    const row = rows[0];
    if (!row) {
      return null;
    }
    const { secretDigest, ...partner } = row;
    return { partner, secretDigest };
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
}
