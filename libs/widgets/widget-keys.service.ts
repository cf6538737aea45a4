import { Injectable, Logger } from '@nestjs/common';
import type { OwnerScope } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { AuditLogRepository, OrganizationsService } from '#app/partners';
import { WidgetKeyAuthenticator } from './widget-key.authenticator.js';
import {
  newWidgetKey,
  parseAllowedOrigins,
  parseWidgetKeyMode,
  parseWidgetKeyName,
} from './widget-key.js';
import { WidgetKeysRepository, type WidgetKeyRecord } from './widget-keys.repository.js';

/** What creating a key takes; every field is checked here, whoever calls (admin, CLI, dashboard). */
export interface NewWidgetKey {
  mode: unknown;
  name: unknown;
  allowedOrigins: unknown;
}

/**
 * Widget keys of an organization: created, listed and revoked by operators (admin API, CLI) and
 * by the dashboard's Widget page, each change audit-logged under the given actor.
 */
@Injectable()
export class WidgetKeysService {
  private readonly logger = new Logger(WidgetKeysService.name);

  constructor(
    private readonly keys: WidgetKeysRepository,
    private readonly organizations: OrganizationsService,
    private readonly audit: AuditLogRepository,
    private readonly authenticator: WidgetKeyAuthenticator,
  ) {}

  async create(
    organizationId: string,
    input: NewWidgetKey,
    actor: string,
  ): Promise<WidgetKeyRecord> {
    const mode = parseWidgetKeyMode(input.mode);
    const name = parseWidgetKeyName(input.name);
    const allowedOrigins = parseAllowedOrigins(input.allowedOrigins);
    const organization = await this.organizations.get(organizationId);
    if (mode === 'live' && organization.status !== 'active') {
      throw new AppError(
        ErrorCode.InvalidRequest,
        'Live widget keys need an active organization; create a test key meanwhile.',
        { param: 'mode' },
      );
    }
    const record = await this.keys.create({
      key: newWidgetKey(mode),
      organizationId,
      mode,
      name,
      allowedOrigins,
    });
    await this.audit.record({
      actor,
      action: 'widget_key.create',
      targetType: 'widget_key',
      targetId: record.key,
      details: { organizationId, mode, name, allowedOrigins },
    });
    this.logger.log({ orgId: organizationId, actor, mode }, 'widget key created');
    return record;
  }

  async list(organizationId: string): Promise<WidgetKeyRecord[]> {
    await this.organizations.get(organizationId);
    return this.keys.listForOrganization(organizationId);
  }

  /** The keys of one organization in one mode (the dashboard's Widget page). */
  async listFor(owner: OwnerScope): Promise<WidgetKeyRecord[]> {
    const mode = owner.livemode ? 'live' : 'test';
    return (await this.list(owner.organizationId)).filter((record) => record.mode === mode);
  }

  /**
   * Revokes a key (idempotent); with `owner`, only a key of that organization and mode (any
   * other is not found, as if it did not exist).
   */
  async revoke(key: string, actor: string, owner?: OwnerScope): Promise<WidgetKeyRecord> {
    const record = await this.keys.findByKey(key);
    if (
      !record ||
      (owner !== undefined &&
        (record.organizationId !== owner.organizationId ||
          (record.mode === 'live') !== owner.livemode))
    ) {
      throw new AppError(ErrorCode.NotFound, 'Widget key not found.');
    }
    if (await this.keys.revoke(key)) {
      await this.audit.record({
        actor,
        action: 'widget_key.revoke',
        targetType: 'widget_key',
        targetId: key,
        details: { organizationId: record.organizationId },
      });
      await this.authenticator.announceRevocation(key);
      this.logger.log({ orgId: record.organizationId, actor }, 'widget key revoked');
    }
    return (await this.keys.findByKey(key)) ?? record;
  }
}
