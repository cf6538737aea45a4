import { Injectable, Logger } from '@nestjs/common';
import type { OwnerScope } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import type { CredentialEntity } from '#app/persistence';
import { AuditLogRepository } from './audit-log.repository.js';
import { CredentialAuthenticator } from './credential.authenticator.js';
import {
  CredentialCipher,
  newPublicKey,
  newSecret,
  PUBLIC_KEY_PATTERN,
} from './credential.cipher.js';
import { CredentialsRepository, type NewCredential } from './credentials.repository.js';
import { assertModeUsable } from './mode-access.js';
import { OrganizationsRepository } from './organizations.repository.js';

const HOUR_MS = 60 * 60 * 1000;

/** How long a rolled credential keeps working next to its replacement. */
export const ROLL_OVERLAPS = {
  now: 0,
  '1h': HOUR_MS,
  '24h': 24 * HOUR_MS,
  '7d': 7 * 24 * HOUR_MS,
} as const;
export type RollOverlap = keyof typeof ROLL_OVERLAPS;
export const ROLL_OVERLAP_CHOICES = Object.keys(ROLL_OVERLAPS) as RollOverlap[];

/** The longest name of an API key, in characters: the dashboard's form reads it too. */
export const CREDENTIAL_NAME_MAX_LENGTH = 100;

function assertName(name: string): void {
  if ([...name].length > CREDENTIAL_NAME_MAX_LENGTH) {
    throw new AppError(
      ErrorCode.InvalidRequest,
      `name must be at most ${CREDENTIAL_NAME_MAX_LENGTH} characters.`,
      { param: 'name' },
    );
  }
}

function isRollOverlap(overlap: string): overlap is RollOverlap {
  return (ROLL_OVERLAP_CHOICES as readonly string[]).includes(overlap);
}

/** Where a credential stands: usable, usable until a roll's overlap ends, or no longer usable. */
export type CredentialState =
  | { kind: 'active' }
  | { kind: 'expiring'; at: Date }
  | { kind: 'expired'; at: Date }
  | { kind: 'revoked'; at: Date };

/** A credential as the dashboard lists it: never its secret, ciphertext or digest. */
export interface CredentialSummary {
  publicKey: string;
  name: string | null;
  livemode: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
  state: CredentialState;
}

/** A credential just made: the only summary that carries its secret. */
export interface CreatedCredential extends CredentialSummary {
  secret: string;
}

export interface RolledCredential {
  replacement: CreatedCredential;
  /** The rolled credential, expiring (or expired) at the end of the chosen overlap. */
  previous: CredentialSummary;
}

export function credentialState(credential: CredentialEntity, now = new Date()): CredentialState {
  if (credential.revokedAt) {
    return { kind: 'revoked', at: credential.revokedAt };
  }
  if (credential.expiresAt) {
    return credential.expiresAt > now
      ? { kind: 'expiring', at: credential.expiresAt }
      : { kind: 'expired', at: credential.expiresAt };
  }
  return { kind: 'active' };
}

function toSummary(credential: CredentialEntity): CredentialSummary {
  return {
    publicKey: credential.publicKey,
    name: credential.name,
    livemode: credential.mode === 'live',
    createdAt: credential.createdAt,
    lastUsedAt: credential.lastUsedAt,
    state: credentialState(credential),
  };
}

function notFound(): AppError {
  return new AppError(ErrorCode.NotFound, 'API key not found.');
}

/**
 * An organization's own API keys, one mode at a time, as its dashboard users manage them: list,
 * create, reveal, revoke and roll. Every lookup takes the owner (organization and mode), so
 * another organization's or mode's key reads as unknown; every change and every reveal is
 * audit-logged under the user who made it (`actor`).
 */
@Injectable()
export class CredentialsService {
  private readonly logger = new Logger(CredentialsService.name);

  constructor(
    private readonly credentials: CredentialsRepository,
    private readonly organizations: OrganizationsRepository,
    private readonly audit: AuditLogRepository,
    private readonly cipher: CredentialCipher,
    private readonly authenticator: CredentialAuthenticator,
  ) {}

  async list(owner: OwnerScope): Promise<CredentialSummary[]> {
    return (await this.credentials.listForOwner(owner)).map(toSummary);
  }

  /** A new key named `name`; live keys only for an active organization. */
  async create(owner: OwnerScope, name: string, actor: string): Promise<CreatedCredential> {
    assertName(name);
    await this.assertMayIssue(owner);
    const { entity, secret } = await this.store(owner, name, (credential) =>
      this.credentials.create(credential),
    );
    await this.record(actor, 'credential.create', entity.publicKey, owner, { name });
    return { ...toSummary(entity), secret };
  }

  /**
   * The secret of a usable key, written to the audit log as `credential.revealed` under `actor`
   * before it is answered. A revoked or expired key's secret is never shown again.
   */
  async reveal(
    owner: OwnerScope,
    publicKey: string,
    actor: string,
  ): Promise<{ credential: CredentialSummary; secret: string }> {
    const credential = await this.own(publicKey, owner);
    const summary = toSummary(credential);
    if (summary.state.kind === 'revoked' || summary.state.kind === 'expired') {
      throw new AppError(ErrorCode.Conflict, 'This API key no longer works; create a new one.');
    }
    await this.record(actor, 'credential.revealed', publicKey, owner);
    this.logger.log({ orgId: owner.organizationId, publicKey, actor }, 'credential revealed');
    return {
      credential: summary,
      secret: this.cipher.decrypt(credential.secretCiphertext, {
        purpose: 'credential',
        rowId: credential.publicKey,
      }),
    };
  }

  /**
   * Revokes the key: stored first, then every replica is told to drop it from its cache (each
   * drops it within 2 s on its own anyway). Revoking a revoked key changes nothing.
   */
  async revoke(owner: OwnerScope, publicKey: string, actor: string): Promise<CredentialSummary> {
    await this.own(publicKey, owner);
    if (await this.credentials.revokeForOwner(publicKey, owner)) {
      await this.authenticator.announceRevocation(publicKey);
      await this.record(actor, 'credential.revoke', publicKey, owner);
      this.logger.log({ orgId: owner.organizationId, publicKey, actor }, 'credential revoked');
    }
    return toSummary(await this.own(publicKey, owner));
  }

  /**
   * Issues a replacement with the same name and makes the key expire after `overlap` (at once
   * for `now`, when every replica is told to drop it as for a revocation). Only a key that works
   * and was not rolled already can be rolled.
   */
  async roll(
    owner: OwnerScope,
    publicKey: string,
    overlap: string,
    actor: string,
  ): Promise<RolledCredential> {
    if (!isRollOverlap(overlap)) {
      throw new AppError(ErrorCode.InvalidRequest, 'Choose how long the old key keeps working.', {
        param: 'overlap',
      });
    }
    await this.assertMayIssue(owner);
    const current = await this.own(publicKey, owner);
    const expiresAt = new Date(Date.now() + ROLL_OVERLAPS[overlap]);
    const { entity, secret } = await this.store(owner, current.name, async (replacement) => {
      const stored = await this.credentials.roll(publicKey, owner, replacement, expiresAt);
      if (!stored) {
        throw new AppError(
          ErrorCode.Conflict,
          'Only an active API key can be rolled; this one is revoked, expired or already rolled.',
        );
      }
      return stored;
    });
    if (overlap === 'now') {
      await this.authenticator.announceRevocation(publicKey);
    }
    await this.record(actor, 'credential.roll', publicKey, owner, {
      replacement: entity.publicKey,
      expiresAt: expiresAt.toISOString(),
    });
    this.logger.log(
      { orgId: owner.organizationId, publicKey, replacement: entity.publicKey, overlap, actor },
      'credential rolled',
    );
    return {
      replacement: { ...toSummary(entity), secret },
      previous: toSummary(await this.own(publicKey, owner)),
    };
  }

  private async store(
    owner: OwnerScope,
    name: string | null,
    save: (credential: NewCredential) => Promise<CredentialEntity>,
  ): Promise<{ entity: CredentialEntity; secret: string }> {
    const mode = owner.livemode ? 'live' : 'test';
    const secret = newSecret(mode);
    const publicKey = newPublicKey(mode);
    const entity = await save({
      organizationId: owner.organizationId,
      mode,
      name,
      publicKey,
      secretCiphertext: this.cipher.encrypt(secret, { purpose: 'credential', rowId: publicKey }),
      secretDigest: this.cipher.digest(secret),
    });
    return { entity, secret };
  }

  private async assertMayIssue(owner: OwnerScope): Promise<void> {
    const organization = await this.organizations.findById(owner.organizationId);
    if (!organization) {
      throw new AppError(ErrorCode.NotFound, 'Organization not found.');
    }
    assertModeUsable(organization.status, owner.livemode);
  }

  private async own(publicKey: string, owner: OwnerScope): Promise<CredentialEntity> {
    const credential = PUBLIC_KEY_PATTERN.test(publicKey)
      ? await this.credentials.findForOwner(publicKey, owner)
      : null;
    if (!credential) {
      throw notFound();
    }
    return credential;
  }

  private async record(
    actor: string,
    action: string,
    publicKey: string,
    owner: OwnerScope,
    details: Record<string, unknown> = {},
  ): Promise<void> {
    await this.audit.record({
      actor,
      action,
      targetType: 'credential',
      targetId: publicKey,
      organizationId: owner.organizationId,
      details: {
        organizationId: owner.organizationId,
        mode: owner.livemode ? 'live' : 'test',
        ...details,
      },
    });
  }
}
