import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditLogEntryEntity, EntityColumns } from '#app/persistence';

export interface AuditRecord {
  actor: string;
  action: string;
  targetType: string;
  targetId: string;
  details?: Record<string, unknown>;
  /** The organization the entry concerns: it shows in that organization's own audit log. */
  organizationId?: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Operator entries name the organization in their target or details: those count for the
 * organization's own log too.
 */
function organizationOf(entry: AuditRecord): string | null {
  if (entry.targetType === 'organization' && UUID.test(entry.targetId)) {
    return entry.targetId;
  }
  const named = entry.details?.organizationId;
  return typeof named === 'string' && UUID.test(named) ? named : null;
}

/** Append-only log of operator actions, the only writer of `audit_log`. Callers never pass a secret in `details`. */
@Injectable()
export class AuditLogRepository {
  private readonly columns: EntityColumns<AuditLogEntryEntity>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.columns = new EntityColumns(dataSource, AuditLogEntryEntity);
  }

  async record(entry: AuditRecord): Promise<void> {
    await this.columns.insert(this.dataSource, {
      actor: entry.actor,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      details: entry.details ?? null,
      organizationId: entry.organizationId ?? organizationOf(entry),
      createdAt: new Date(),
    });
  }

  /**
   * One organization's entries, newest first, `limit` of them before the entry `beforeId` (keyset
   * paging: stable while new entries arrive).
   */
  listForOrganization(
    organizationId: string,
    limit: number,
    beforeId?: string,
  ): Promise<AuditLogEntryEntity[]> {
    return this.columns.read(
      this.dataSource,
      `SELECT ${this.columns.list} FROM audit_log
        WHERE organization_id = $1 AND ($2::bigint IS NULL OR id < $2::bigint)
        ORDER BY id DESC LIMIT $3`,
      [organizationId, beforeId ?? null, limit],
    );
  }

  latest(limit: number): Promise<AuditLogEntryEntity[]> {
    return this.columns.read(
      this.dataSource,
      `SELECT ${this.columns.list} FROM audit_log ORDER BY id DESC LIMIT $1`,
      [limit],
    );
  }
}
