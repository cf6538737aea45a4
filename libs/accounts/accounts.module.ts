import { Module } from '@nestjs/common';
import { MailModule } from '#app/mail';
import { PartnersModule } from '#app/partners';
import { RedisModule } from '#app/redis';
import { AccountRequestsLimiter } from './account-requests.limiter.js';
import { ApplicationsRepository } from './applications.repository.js';
import { Clock } from './clock.js';
import { DashboardAccountsService } from './dashboard-accounts.service.js';
import { DashboardAudit } from './dashboard-audit.js';
import { DashboardSessionsRepository } from './dashboard-sessions.repository.js';
import { DashboardSessionsService } from './dashboard-sessions.service.js';
import { DashboardUsersRepository } from './dashboard-users.repository.js';
import { InvitationsRepository } from './invitations.repository.js';
import { PasswordHasher } from './password.hasher.js';
import { PasswordResetsRepository } from './password-resets.repository.js';
import { ReauthenticationService } from './reauthentication.service.js';
import { SignInThrottle } from './sign-in.throttle.js';

/**
 * Partner dashboard accounts: applications, users, sessions, invitations, password resets,
 * re-authentication.
 * Their mail goes to the outbox (`MailModule`), which the poller sends.
 */
@Module({
  imports: [MailModule, PartnersModule, RedisModule],
  providers: [
    AccountRequestsLimiter,
    ApplicationsRepository,
    Clock,
    PasswordHasher,
    DashboardUsersRepository,
    DashboardSessionsRepository,
    InvitationsRepository,
    PasswordResetsRepository,
    DashboardSessionsService,
    DashboardAccountsService,
    DashboardAudit,
    ReauthenticationService,
    SignInThrottle,
  ],
  exports: [
    MailModule,
    AccountRequestsLimiter,
    Clock,
    PasswordHasher,
    DashboardSessionsService,
    DashboardAccountsService,
    DashboardAudit,
    ReauthenticationService,
    SignInThrottle,
  ],
})
export class AccountsModule {}
