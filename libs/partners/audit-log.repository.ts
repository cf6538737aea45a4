import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, Repository } from 'typeorm';
import { AuditLogEntryEntity } from '#app/persistence';

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

/** Append-only log of operator actions. Callers never pass a secret in `details`. */
@Injectable()
export class AuditLogRepository {
  constructor(
    @InjectRepository(AuditLogEntryEntity)
    private readonly repository: Repository<AuditLogEntryEntity>,
  ) {}

  async record(entry: AuditRecord): Promise<void> {
    await this.repository.save(
      this.repository.create({
        ...entry,
        details: entry.details ?? null,
        organizationId: entry.organizationId ?? organizationOf(entry),
        createdAt: new Date(),
      }),
    );
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
    return this.repository.find({
      where:
        beforeId === undefined ? { organizationId } : { organizationId, id: LessThan(beforeId) },
      order: { id: 'DESC' },
      take: limit,
    });
  }

  latest(limit: number): Promise<AuditLogEntryEntity[]> {
    return this.repository.find({ order: { id: 'DESC' }, take: limit });
  }
}
