import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsString, MaxLength } from 'class-validator';
import { IsPlainText } from '#app/input';
import { DASHBOARD_ROLES, type DashboardRole } from './dashboard-role.js';
import type { DashboardUser } from './dashboard-user.js';
import type { Invitation } from './invitations.repository.js';

function trim({ value }: { value: unknown }): unknown {
  return typeof value === 'string' ? value.trim() : value;
}

/** An invitation to a dashboard; the admin API's body and the CLI's arguments share these rules. */
export class CreateInvitationInput {
  // class-validator runs these bottom-up: the plain-text check must come before IsEmail, whose
  // validator.js implementation throws (a 500) on an unpaired surrogate.
  @Transform(trim)
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be an email address.' })
  @IsPlainText()
  email: string;

  @IsIn(DASHBOARD_ROLES)
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
