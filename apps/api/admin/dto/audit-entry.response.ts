import { ApiProperty } from '@nestjs/swagger';
import type { AuditLogEntryEntity } from '#app/persistence';

export class AuditEntryView {
  @ApiProperty({ description: 'Sequence number (bigint) as a string; higher is newer.' })
  id: string;

  @ApiProperty({ example: 'admin', description: '`admin` (HTTP), `cli`, or `embedded-seed`.' })
  actor: string;

  @ApiProperty({ example: 'credential.reveal' })
  action: string;

  @ApiProperty({ example: 'credential' })
  targetType: string;

  @ApiProperty()
  targetId: string;

  @ApiProperty({ type: Object, nullable: true })
  details: Record<string, unknown> | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class AuditLogResponse {
  @ApiProperty({ type: [AuditEntryView] })
  entries: AuditEntryView[];
}

export function toAuditEntryView(entry: AuditLogEntryEntity): AuditEntryView {
  return {
    id: String(entry.id),
    actor: entry.actor,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    details: entry.details,
    createdAt: entry.createdAt.toISOString(),
  };
}
