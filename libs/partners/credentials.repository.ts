import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { CredentialEntity, OrganizationEntity } from '#app/persistence';

/** A credential with the organization state authentication needs. */
export interface CredentialWithOrganization {
  credential: CredentialEntity;
  organization: OrganizationEntity;
}

@Injectable()
export class CredentialsRepository {
  constructor(
    @InjectRepository(CredentialEntity) private readonly repository: Repository<CredentialEntity>,
    @InjectRepository(OrganizationEntity)
    private readonly organizations: Repository<OrganizationEntity>,
  ) {}

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

  async findActiveWithOrganization(publicKey: string): Promise<CredentialWithOrganization | null> {
    const credential = await this.repository.findOneBy({ publicKey, revokedAt: IsNull() });
    if (!credential) {
      return null;
    }
    const organization = await this.organizations.findOneBy({ id: credential.organizationId });
    return organization ? { credential, organization } : null;
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
