import { IsEmail } from 'class-validator';
import { EnumField, StringField } from '#app/input';
import { DASHBOARD_ROLES, type DashboardRole } from './dashboard-role.js';
import type { DashboardUser } from './dashboard-user.js';
import type { Invitation } from './invitations.repository.js';

/** An invitation to a dashboard; the admin API's body and the CLI's arguments share these rules. */
export class CreateInvitationInput {
  // StringField's plain-text check runs before IsEmail, whose validator.js implementation throws
  // (a 500) on an unpaired surrogate.
  @StringField(
    'email',
    { maxLength: 254, trim: true },
    IsEmail({}, { message: 'email must be an email address.' }),
  )
  email: string;

  @EnumField('role', DASHBOARD_ROLES)
  role: DashboardRole;
}

/** A dashboard user as operators see it: never a password hash. */
export interface DashboardUserView {
  id: string;
  organizationId: string;
  email: string;
  role: DashboardRole;
  disabled: boolean;
  disabledAt: string | null;
  createdAt: string;
}

export function toDashboardUserView(user: DashboardUser): DashboardUserView {
  return {
    id: user.id,
    organizationId: user.organizationId,
    email: user.email,
    role: user.role,
    disabled: user.disabledAt !== null,
    disabledAt: user.disabledAt?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
  };
}

export interface InvitationView {
  id: string;
  email: string;
  role: DashboardRole;
  url: string;
  expiresAt: string;
}

export function toInvitationView(invitation: Invitation, url: string): InvitationView {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    url,
    expiresAt: invitation.expiresAt.toISOString(),
  };
}
