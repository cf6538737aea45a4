import type { AuditLogEntryEntity } from '#app/persistence';

/** An audit log entry as the admin API answers it and the admin CLI prints it. */
export interface AuditEntryView {
  id: string;
  actor: string;
  action: string;
  targetType: string;
  targetId: string;
  details: Record<string, unknown> | null;
  createdAt: string;
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
