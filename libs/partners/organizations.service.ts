import { Injectable, Logger } from '@nestjs/common';
import { type CredentialMode, type PayoutNetwork, PAYOUT_CHAINS } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { validateAddress } from '#app/chains';
import type { CredentialEntity, OrganizationEntity } from '#app/persistence';
import { AuditLogRepository } from './audit-log.repository.js';
import { CredentialAuthenticator } from './credential.authenticator.js';
import { CredentialCipher, newPublicKey, newSecret } from './credential.cipher.js';
import { CredentialsRepository } from './credentials.repository.js';
import { credentialState } from './credentials.service.js';
import {
  NewOrganization,
  OrganizationPatch,
  OrganizationsRepository,
} from './organizations.repository.js';

export interface IssuedCredential {
  publicKey: string;
  secret: string;
  mode: CredentialMode;
  createdAt: Date;
}

export interface RevealedCredential {
  publicKey: string;
  secret: string;
}

function assertPayoutAddress(address: string | null | undefined, network: PayoutNetwork): void {
  if (address && !validateAddress(PAYOUT_CHAINS[network], address).valid) {
    throw new AppError(
      ErrorCode.InvalidAddress,
      `payoutAddress is not a valid ${network.toUpperCase()} address.`,
      { param: 'payoutAddress' },
    );
  }
}

function notFound(what: string): AppError {
  return new AppError(ErrorCode.NotFound, `${what} not found.`);
}

/** Operator actions on organizations and their credentials; every change is audit-logged. */
@Injectable()
export class OrganizationsService {
  private readonly logger = new Logger(OrganizationsService.name);

  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly credentials: CredentialsRepository,
    private readonly audit: AuditLogRepository,
    private readonly cipher: CredentialCipher,
    private readonly authenticator: CredentialAuthenticator,
  ) {}

  async create(input: NewOrganization, actor: string): Promise<OrganizationEntity> {
    assertPayoutAddress(input.payoutAddress, input.payoutNetwork);
    const organization = await this.organizations.create(input);
    await this.audit.record({
      actor,
      action: 'organization.create',
      targetType: 'organization',
      targetId: organization.id,
      details: { name: input.name, feePercent: input.feePercent, status: input.status },
    });
    this.logger.log({ orgId: organization.id, actor }, 'organization created');
    return organization;
  }

  list(): Promise<OrganizationEntity[]> {
    return this.organizations.list();
  }

  findByName(name: string): Promise<OrganizationEntity | null> {
    return this.organizations.findByName(name);
  }

  async get(id: string): Promise<OrganizationEntity> {
    const organization = await this.organizations.findById(id);
    if (!organization) {
      throw notFound('Organization');
    }
    return organization;
  }

  async update(id: string, patch: OrganizationPatch, actor: string): Promise<OrganizationEntity> {
    const current = await this.get(id);
    assertPayoutAddress(patch.payoutAddress, patch.payoutNetwork ?? current.payoutNetwork);
    const updated = await this.organizations.update(id, patch);
    if (!updated) {
      throw notFound('Organization');
    }
    await this.audit.record({
      actor,
      action: 'organization.update',
      targetType: 'organization',
      targetId: id,
      details: { ...patch },
    });
    return updated;
  }

  async issueCredential(
    organizationId: string,
    actor: string,
    mode: CredentialMode = 'live',
  ): Promise<IssuedCredential> {
    await this.get(organizationId);
    const secret = newSecret(mode);
    const publicKey = newPublicKey(mode);
    const credential = await this.credentials.create({
      organizationId,
      mode,
      publicKey,
      secretCiphertext: this.cipher.encrypt(secret, { purpose: 'credential', rowId: publicKey }),
      secretDigest: this.cipher.digest(secret),
    });
    await this.audit.record({
      actor,
      action: 'credential.create',
      targetType: 'credential',
      targetId: credential.publicKey,
      details: { organizationId, mode },
    });
    return { publicKey: credential.publicKey, secret, mode, createdAt: credential.createdAt };
  }

  async listCredentials(organizationId: string): Promise<CredentialEntity[]> {
    await this.get(organizationId);
    return this.credentials.listForOrganization(organizationId);
  }

  async revealCredential(publicKey: string, actor: string): Promise<RevealedCredential> {
    const credential = await this.credentials.findByPublicKey(publicKey);
    if (!credential) {
      throw notFound('Credential');
    }
    const state = credentialState(credential).kind;
    if (state === 'revoked' || state === 'expired') {
      throw new AppError(
        ErrorCode.Conflict,
        'This credential no longer works and its secret is not shown again; issue a new one.',
      );
    }
    await this.audit.record({
      actor,
      action: 'credential.reveal',
      targetType: 'credential',
      targetId: publicKey,
      details: { organizationId: credential.organizationId },
    });
    return {
      publicKey,
      secret: this.cipher.decrypt(credential.secretCiphertext, {
        purpose: 'credential',
        rowId: credential.publicKey,
      }),
    };
  }

  async revokeCredential(publicKey: string, actor: string): Promise<CredentialEntity> {
    const credential = await this.credentials.findByPublicKey(publicKey);
    if (!credential) {
      throw notFound('Credential');
    }
    if (await this.credentials.revoke(publicKey)) {
      await this.audit.record({
        actor,
        action: 'credential.revoke',
        targetType: 'credential',
        targetId: publicKey,
        details: { organizationId: credential.organizationId },
      });
      await this.authenticator.announceRevocation(publicKey);
      this.logger.log({ orgId: credential.organizationId, publicKey, actor }, 'credential revoked');
    }
    return (await this.credentials.findByPublicKey(publicKey)) ?? credential;
  }

  latestAudit(limit: number) {
    return this.audit.latest(limit);
  }
}
