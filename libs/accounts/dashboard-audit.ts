import { Injectable } from '@nestjs/common';
import { AuditLogRepository } from '#app/partners';
import type { DashboardUser } from './dashboard-user.js';

/** How a dashboard user appears as the actor of an audit entry. */
export function dashboardActor(user: Pick<DashboardUser, 'email'>): string {
  return `dashboard:${user.email}`.slice(0, 128);
}

/** Audit entries written by dashboard users; they show in their organization's own log. */
@Injectable()
export class DashboardAudit {
  constructor(private readonly audit: AuditLogRepository) {}

  /** `details` never holds a secret. */
  record(
    user: Pick<DashboardUser, 'email' | 'organizationId'>,
    action: string,
    target: { type: string; id: string },
    details?: Record<string, unknown>,
  ): Promise<void> {
    return this.audit.record({
      actor: dashboardActor(user),
      action,
      targetType: target.type,
      targetId: target.id,
      organizationId: user.organizationId,
      details,
    });
  }
}
