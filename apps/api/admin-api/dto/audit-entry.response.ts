import { ApiProperty } from '@nestjs/swagger';

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
