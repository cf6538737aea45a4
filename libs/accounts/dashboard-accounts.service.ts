import { Injectable, Logger } from '@nestjs/common';
import type { OrganizationStatus } from '#app/domain';
import type { OrganizationEntity } from '#app/persistence';
import { AppError, ErrorCode } from '#app/errors';
import { Mailer } from '#app/mail';
import { AuditLogRepository, OrganizationsService } from '#app/partners';
import { type Application, ApplicationsRepository } from './applications.repository.js';
import { Clock } from './clock.js';
import { DashboardAudit, dashboardActor } from './dashboard-audit.js';
import type { DashboardRole } from './dashboard-role.js';
import type { DashboardUser, SignedIn } from './dashboard-user.js';
import { DashboardUsersRepository } from './dashboard-users.repository.js';
import { DashboardSessionsService } from './dashboard-sessions.service.js';
import { type Invitation, InvitationsRepository } from './invitations.repository.js';
import { PasswordHasher } from './password.hasher.js';
import { passwordProblem } from './password.policy.js';
import { PasswordResetsRepository } from './password-resets.repository.js';
import { looksLikeToken, newToken, tokenHash } from './tokens.js';

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;
export const APPLICATION_TTL_MS = 24 * 60 * 60 * 1000;

/** The path (under the service's origin) of each kind of link a mail carries. */
export const LINK_PATHS = {
  application: '/partner/signup/confirm/',
  invitation: '/partner/invitations/',
  passwordReset: '/partner/reset-password/',
} as const;

function refuse(message: string, param: string): AppError {
  return new AppError(ErrorCode.InvalidRequest, message, { param });
}

function assertPassword(password: string, email: string): void {
  const problem = passwordProblem(password, email);
  if (problem !== null) {
    throw refuse(problem, 'password');
  }
}

export interface SignUp {
  organizationName: string;
  email: string;
  password: string;
  feePercent: string;
}

export interface IssuedInvitation {
  invitation: Invitation;
  url: string;
}

/**
 * Dashboard accounts: applying, signing in, invitations, password resets and changes, the team.
 * Links in mails are built on `origin` (`PUBLIC_URL`, else the request's own).
 */
@Injectable()
export class DashboardAccountsService {
  private readonly logger = new Logger(DashboardAccountsService.name);

  constructor(
    private readonly users: DashboardUsersRepository,
    private readonly invitations: InvitationsRepository,
    private readonly applications: ApplicationsRepository,
    private readonly resets: PasswordResetsRepository,
    private readonly sessions: DashboardSessionsService,
    private readonly hasher: PasswordHasher,
    private readonly organizations: OrganizationsService,
    private readonly audit: DashboardAudit,
    private readonly auditLog: AuditLogRepository,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
  ) {}

  /**
   * An application (sign-up), answered the same whoever the address belongs to: the same checks,
   * the same password hash, one mail queued. A new address gets a link that confirms the
   * application (`confirmApplication`); an address with an account gets a notice instead, so the
   * form never tells anyone which addresses have accounts.
   */
  async apply(input: SignUp, origin: string): Promise<void> {
    assertPassword(input.password, input.email);
    const passwordHash = await this.hasher.hash(input.password);
    if (await this.users.findByEmail(input.email)) {
      await this.mailer.send({
        to: input.email,
        subject: 'You have a Swap Partners account already',
        text:
          `Someone applied for a Swap Partners partner account with ${input.email}, which ` +
          `has a dashboard account already.\n\nIf it was you, sign in here:\n` +
          `${origin}/partner/login\n\nForgot your password? Choose a new one here:\n` +
          `${origin}/partner/forgot-password\n\nIf it was not you, ignore this mail.\n`,
      });
      return;
    }
    const token = newToken();
    const now = this.clock.now();
    const url = `${origin}${LINK_PATHS.application}${token}`;
    await this.applications.transaction(async (manager) => {
      await this.applications.create(
        {
          email: input.email,
          organizationName: input.organizationName,
          feePercent: input.feePercent,
          passwordHash,
          tokenHash: tokenHash(token),
          now,
          expiresAt: new Date(now.getTime() + APPLICATION_TTL_MS),
        },
        manager,
      );
      await this.mailer.send(
        {
          to: input.email,
          subject: 'Confirm your Swap Partners application',
          text:
            `Thank you for applying for a Swap Partners partner account for ` +
            `${input.organizationName}.\n\nConfirm your email address here to create it (the ` +
            `link works once, for 24 hours):\n${url}\n\nIf it was not you, ignore this mail: ` +
            'nothing is created without the link.\n',
          link: url,
        },
        manager,
      );
    });
  }

  /** The application a link opens (its address and organization), while it can be confirmed. */
  findOpenApplication(token: unknown): Promise<Application | null> {
    return looksLikeToken(token)
      ? this.applications.findOpen(tokenHash(token), this.clock.now())
      : Promise.resolve(null);
  }

  /**
   * Confirms an application from its link: a `pending_review` organization with the applicant
   * as its owner exists from now on. The link works once.
   */
  async confirmApplication(
    token: unknown,
  ): Promise<{ user: DashboardUser; organization: OrganizationEntity }> {
    const gone = new AppError(ErrorCode.NotFound, 'This application link is used or expired.');
    if (!looksLikeToken(token)) {
      throw gone;
    }
    return this.applications.take(tokenHash(token), this.clock.now(), async (application) => {
      if (!application) {
        throw gone;
      }
      if (await this.users.findByEmail(application.email)) {
        throw new AppError(ErrorCode.EmailTaken, 'A user with this email exists already.', {
          param: 'email',
        });
      }
      const organization = await this.organizations.create(
        {
          name: application.organizationName,
          feePercent: application.feePercent,
          status: 'pending_review',
          providerActivated: false,
          payoutAddress: null,
          payoutNetwork: 'trc20',
        },
        dashboardActor(application),
      );
      const user = await this.users.create({
        organizationId: organization.id,
        email: application.email,
        passwordHash: application.passwordHash,
        role: 'owner',
      });
      await this.audit.record(user, 'user.signed_up', { type: 'user', id: user.id });
      this.logger.log({ orgId: organization.id, userId: user.id }, 'organization applied');
      return { user, organization };
    });
  }

  /**
   * A user with exactly this email, role and password (creating it or resetting its password):
   * for seeded accounts such as the embedded start's demo owner, whose printed password must work.
   */
  async ensureUser(input: {
    organizationId: string;
    email: string;
    role: DashboardRole;
    password: string;
  }): Promise<DashboardUser> {
    const found = await this.users.findWithHashByEmail(input.email);
    if (!found) {
      return this.users.create({
        organizationId: input.organizationId,
        email: input.email,
        role: input.role,
        passwordHash: await this.hasher.hash(input.password),
      });
    }
    if (!(await this.hasher.verify(found.passwordHash, input.password))) {
      await this.users.setPasswordHash(found.user.id, await this.hasher.hash(input.password));
    }
    return found.user;
  }

  /** The user these credentials belong to; null for any failure, after the same work. */
  async authenticate(email: string, password: string): Promise<DashboardUser | null> {
    const found = await this.users.findWithHashByEmail(email);
    if (!found) {
      return this.hasher.verifyNobody(password).then(() => null);
    }
    const valid = await this.hasher.verify(found.passwordHash, password);
    return valid && found.user.disabledAt === null ? found.user : null;
  }

  /**
   * Signs a user in whose password (and second factor, `factor`) was proved: the browser's
   * former session ends (a new id, never the one it had: no fixation), the new one starts live for
   * an active organization and in test mode otherwise, and the sign-in is in the organization's
   * audit log. Answers the new session's token, for the cookie.
   */
  async signIn(
    user: DashboardUser,
    browser: {
      previous: SignedIn | null;
      cookie: string | undefined;
      ip: string;
      userAgent: string;
    },
    factor?: string,
  ): Promise<string> {
    if (browser.previous) {
      await this.sessions.end(browser.previous.session.id);
    } else if (browser.cookie !== undefined) {
      await this.sessions.endByToken(browser.cookie);
    }
    const active = (await this.organizationStatus(user.organizationId)) === 'active';
    const { token, session } = await this.sessions.start(user, active ? 'live' : 'test', browser);
    await this.audit.record(
      user,
      'user.signed_in',
      { type: 'session', id: session.id },
      factor === undefined ? { ip: session.ip } : { ip: session.ip, factor },
    );
    return token;
  }

  /** Ends the session of a user who signs out, in the organization's audit log. */
  async signOut(signedIn: SignedIn): Promise<void> {
    await this.sessions.end(signedIn.session.id);
    await this.audit.record(signedIn.user, 'user.signed_out', {
      type: 'session',
      id: signedIn.session.id,
    });
  }

  async organizationStatus(organizationId: string): Promise<OrganizationStatus> {
    return (await this.organizations.get(organizationId)).status;
  }

  /** True when `password` is the user's current one. */
  async checkPassword(user: DashboardUser, password: string): Promise<boolean> {
    const hash = await this.users.passwordHashOf(user.id);
    return hash === null ? this.hasher.verifyNobody(password) : this.hasher.verify(hash, password);
  }

  async invite(
    input: { organizationId: string; email: string; role: DashboardRole; invitedBy: string },
    origin: string,
  ): Promise<IssuedInvitation> {
    const organization = await this.organizations.get(input.organizationId);
    if (await this.users.findByEmail(input.email)) {
      throw new AppError(ErrorCode.EmailTaken, 'A user with this email exists already.', {
        param: 'email',
      });
    }
    const token = newToken();
    const now = this.clock.now();
    const invitation = await this.invitations.create({
      ...input,
      tokenHash: tokenHash(token),
      now,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
    });
    const url = `${origin}${LINK_PATHS.invitation}${token}`;
    await this.mailer.send({
      to: input.email,
      subject: `You are invited to ${organization.name} on Swap Partners`,
      text:
        `You are invited to join ${organization.name} on the Swap Partners dashboard as ` +
        `${input.role}.\n\nSet your password here (the link works once, for 7 days):\n${url}\n`,
      link: url,
    });
    return { invitation, url };
  }

  /**
   * An owner's invitation from the Team page. The answer is the same whoever the email belongs
   * to, so the page never tells one organization about another's users: a member of this team
   * is refused (the owner sees the team anyway); an address with an account elsewhere gets a
   * notice by mail instead of an invitation (an account belongs to one organization).
   */
  /**
   * An owner's invitation from the Team page: the invitation, or the notice an address with an
   * account elsewhere gets instead; in the organization's audit log either way.
   */
  async inviteToTeam(
    by: DashboardUser,
    input: { email: string; role: DashboardRole },
    origin: string,
  ): Promise<void> {
    await this.sendTeamInvitation(
      { ...input, organizationId: by.organizationId, invitedBy: dashboardActor(by) },
      origin,
    );
    await this.audit.record(
      by,
      'team.invited',
      { type: 'invitation', id: input.email },
      { role: input.role },
    );
  }

  private async sendTeamInvitation(
    input: { organizationId: string; email: string; role: DashboardRole; invitedBy: string },
    origin: string,
  ): Promise<void> {
    const existing = await this.users.findByEmail(input.email);
    if (!existing) {
      await this.invite(input, origin);
      return;
    }
    if (existing.organizationId === input.organizationId) {
      throw new AppError(ErrorCode.EmailTaken, 'This person is in your team already.', {
        param: 'email',
      });
    }
    const organization = await this.organizations.get(input.organizationId);
    await this.mailer.send({
      to: input.email,
      subject: `${organization.name} tried to invite you on Swap Partners`,
      text:
        `${organization.name} tried to invite this address to its Swap Partners dashboard, but ` +
        `it already has a dashboard account, and an account belongs to one organization.\n\n` +
        `If you want to join ${organization.name}, ask them to invite another address.\n`,
    });
  }

  /** The invitation a link opens, while it can still be accepted. */
  findOpenInvitation(token: unknown): Promise<Invitation | null> {
    return looksLikeToken(token)
      ? this.invitations.findOpenByTokenHash(tokenHash(token), this.clock.now())
      : Promise.resolve(null);
  }

  /** Accepts an invitation: the user exists from now on, with the invited role. */
  async acceptInvitation(token: unknown, password: string): Promise<DashboardUser> {
    const invitation = await this.findOpenInvitation(token);
    if (!invitation) {
      throw new AppError(ErrorCode.NotFound, 'This invitation link is used or expired.');
    }
    assertPassword(password, invitation.email);
    const passwordHash = await this.hasher.hash(password);
    const user = await this.invitations.transaction(async (manager) => {
      if (!(await this.invitations.markAccepted(invitation.id, this.clock.now(), manager))) {
        throw new AppError(ErrorCode.NotFound, 'This invitation link is used or expired.');
      }
      return this.users.create(
        {
          organizationId: invitation.organizationId,
          email: invitation.email,
          passwordHash,
          role: invitation.role,
        },
        manager,
      );
    });
    await this.audit.record(
      user,
      'team.invitation_accepted',
      { type: 'user', id: user.id },
      {
        role: user.role,
        invitedBy: invitation.invitedBy,
      },
    );
    return user;
  }

  /** Mails a reset link when the address has an account; the caller answers the same either way. */
  async requestPasswordReset(email: string, origin: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user || user.disabledAt !== null) {
      return;
    }
    const token = newToken();
    const now = this.clock.now();
    await this.resets.create(
      user.id,
      tokenHash(token),
      now,
      new Date(now.getTime() + PASSWORD_RESET_TTL_MS),
    );
    const url = `${origin}${LINK_PATHS.passwordReset}${token}`;
    await this.mailer.send({
      to: user.email,
      subject: 'Reset your Swap Partners password',
      text:
        `Someone asked to reset the password of ${user.email} on the Swap Partners dashboard.\n\n` +
        `Choose a new password here (the link works once, for 1 hour):\n${url}\n\n` +
        'If it was not you, ignore this mail: your password stays as it is.\n',
      link: url,
    });
    await this.audit.record(user, 'user.password_reset_requested', { type: 'user', id: user.id });
  }

  async isResetLinkOpen(token: unknown): Promise<boolean> {
    return (
      looksLikeToken(token) &&
      (await this.resets.findOpenUser(tokenHash(token), this.clock.now())) !== null
    );
  }

  /** Sets a new password from a reset link; every session of the user ends. */
  async resetPassword(token: unknown, password: string): Promise<DashboardUser> {
    const invalid = new AppError(ErrorCode.NotFound, 'This reset link is used or expired.');
    if (!looksLikeToken(token)) {
      throw invalid;
    }
    const userId = await this.resets.findOpenUser(tokenHash(token), this.clock.now());
    const user = userId === null ? null : await this.users.findById(userId);
    if (!user) {
      throw invalid;
    }
    assertPassword(password, user.email);
    const passwordHash = await this.hasher.hash(password);
    if ((await this.resets.consume(tokenHash(token), this.clock.now())) !== user.id) {
      throw invalid;
    }
    await this.users.setPasswordHash(user.id, passwordHash);
    await this.sessions.endAllForUser(user.id);
    await this.audit.record(user, 'user.password_reset', { type: 'user', id: user.id });
    return user;
  }

  /** A signed-in user's new password; their other sessions end (the caller rotates this one). */
  async changePassword(
    user: DashboardUser,
    keepSessionId: string,
    password: string,
  ): Promise<void> {
    assertPassword(password, user.email);
    await this.users.setPasswordHash(user.id, await this.hasher.hash(password));
    await this.sessions.endAllForUser(user.id, keepSessionId);
    await this.audit.record(user, 'user.password_changed', { type: 'user', id: user.id });
  }

  /**
   * Mails every active owner of the organization (a secret revealed, the payout address changed),
   * the one who acted included; a mail that fails is logged, never undoes what it reports.
   */
  async mailOwners(organizationId: string, mail: { subject: string; text: string }): Promise<void> {
    const owners = (await this.users.listForOrganization(organizationId)).filter(
      (user) => user.role === 'owner' && user.disabledAt === null,
    );
    await Promise.all(owners.map((owner) => this.mailer.sendQuietly({ to: owner.email, ...mail })));
  }

  listUsers(organizationId: string): Promise<DashboardUser[]> {
    return this.users.listForOrganization(organizationId);
  }

  listOpenInvitations(organizationId: string): Promise<Invitation[]> {
    return this.invitations.listOpenForOrganization(organizationId, this.clock.now());
  }

  async findUser(id: string): Promise<DashboardUser> {
    const user = await this.users.findById(id);
    if (!user) {
      throw new AppError(ErrorCode.NotFound, 'User not found.');
    }
    return user;
  }

  /** Disables a user for good: they cannot sign in and their sessions end now. */
  async disableUser(id: string, actor: string): Promise<DashboardUser> {
    const user = await this.users.disable(id, this.clock.now());
    if (!user) {
      throw new AppError(ErrorCode.NotFound, 'User not found.');
    }
    await this.sessions.endAllForUser(user.id);
    await this.auditLog.record({
      actor,
      action: 'user.disabled',
      targetType: 'user',
      targetId: user.id,
      organizationId: user.organizationId,
      details: { email: user.email },
    });
    return user;
  }

  /** Changes a member's role (never the last owner away); their sessions get a new id. */
  async changeRole(by: DashboardUser, userId: string, role: DashboardRole): Promise<DashboardUser> {
    const target = await this.memberOf(by.organizationId, userId);
    if (!(await this.users.setRole(target.id, by.organizationId, role))) {
      throw new AppError(ErrorCode.NotFound, 'User not found.');
    }
    // A role change is a credential change: the member's sessions end, so none keeps old rights.
    await this.sessions.endAllForUser(target.id);
    await this.audit.record(
      by,
      'team.role_changed',
      { type: 'user', id: target.id },
      {
        email: target.email,
        from: target.role,
        to: role,
      },
    );
    return { ...target, role };
  }

  async removeMember(by: DashboardUser, userId: string): Promise<void> {
    const target = await this.memberOf(by.organizationId, userId);
    if (!(await this.users.remove(target.id, by.organizationId))) {
      throw new AppError(ErrorCode.NotFound, 'User not found.');
    }
    await this.audit.record(
      by,
      'team.member_removed',
      { type: 'user', id: target.id },
      {
        email: target.email,
        role: target.role,
      },
    );
  }

  private async memberOf(organizationId: string, userId: string): Promise<DashboardUser> {
    const user = await this.users.findByIdForOrganization(userId, organizationId);
    if (!user) {
      throw new AppError(ErrorCode.NotFound, 'User not found.');
    }
    return user;
  }
}
