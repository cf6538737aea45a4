import type { CredentialMode, OrganizationStatus } from '#app/domain';
import type { DashboardRole } from './dashboard-role.js';

/** A person who signs in to the dashboard; belongs to one organization. Never carries the hash. */
export interface DashboardUser {
  id: string;
  organizationId: string;
  email: string;
  role: DashboardRole;
  disabledAt: Date | null;
  createdAt: Date;
}

/** A server-side session, as stored (the id given to the browser is only kept as a digest). */
export interface DashboardSession {
  id: string;
  userId: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  reauthenticatedAt: Date | null;
  mode: CredentialMode;
  csrfSecret: string;
  ip: string;
  userAgent: string;
}

/** The organization as the dashboard shows it on every page. */
export interface SessionOrganization {
  id: string;
  name: string;
  status: OrganizationStatus;
  providerActivated: boolean;
}

/** Everything a signed-in request knows about who is asking. */
export interface SignedIn {
  session: DashboardSession;
  user: DashboardUser;
  organization: SessionOrganization;
}
