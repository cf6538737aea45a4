import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AuditLogEntryEntity } from '#app/persistence';

export interface AuditRecord {
  actor: string;
  action: string;
  targetType: string;
  targetId: string;
  details?: Record<string, unknown>;
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
      this.repository.create({ ...entry, details: entry.details ?? null, createdAt: new Date() }),
    );
  }

  latest(limit: number): Promise<AuditLogEntryEntity[]> {
    return this.repository.find({ order: { id: 'DESC' }, take: limit });
  }
}
