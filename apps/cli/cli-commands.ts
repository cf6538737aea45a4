import {
  type DashboardAccountsService,
  isUuid,
  toDashboardUserView,
  toInvitationView,
} from '#app/accounts';
import { AppError, ErrorCode } from '#app/errors';
import {
  assertOrganizationId,
  assertPublicKey,
  type OrganizationsService,
  toAuditEntryView,
  toCredentialView,
  toIssuedCredentialView,
  toNewOrganization,
  toOrganizationPatch,
  toOrganizationView,
  toRevealedCredentialView,
} from '#app/partners';
import type { ProviderControlService } from '#app/provider-control';
import type { SwapQueryService } from '#app/swaps';
import {
  assertWidgetKey,
  toCreatedWidgetKeyView,
  toWidgetKeyView,
  type WidgetKeysService,
} from '#app/widgets';
import type { CliCommand } from './cli-args.js';

/** Every CLI action is recorded under this actor in the audit log. */
export const CLI_ACTOR = 'cli';

type RunnableCommand = Exclude<CliCommand, { name: 'help' }>;

/** The services the commands run on. */
export interface CliServices {
  organizations: OrganizationsService;
  dashboard: { accounts: DashboardAccountsService; publicUrl: string };
  widgetKeys: WidgetKeysService;
  providers: ProviderControlService;
  swaps: SwapQueryService;
}

/** Runs one command; the result has the same shape as the admin API's response body. */
export async function runCommand(
  command: RunnableCommand,
  { organizations, dashboard, widgetKeys, providers, swaps }: CliServices,
): Promise<object> {
  switch (command.name) {
    case 'user:invite': {
      const organizationId = assertOrganizationId(command.organizationId);
      const { invitation, url } = await dashboard.accounts.invite(
        { organizationId, ...command.invitation, invitedBy: CLI_ACTOR },
        dashboard.publicUrl,
      );
      return { invitation: toInvitationView(invitation, url) };
    }
    case 'user:list': {
      const organizationId = assertOrganizationId(command.organizationId);
      await organizations.get(organizationId);
      return {
        users: (await dashboard.accounts.listUsers(organizationId)).map(toDashboardUserView),
      };
    }
    case 'user:disable': {
      if (!isUuid(command.userId)) {
        throw new AppError(ErrorCode.NotFound, 'User not found.');
      }
      const user = await dashboard.accounts.disableUser(command.userId, CLI_ACTOR);
      return { user: toDashboardUserView(user) };
    }
    case 'org:create': {
      const organization = await organizations.create(
        toNewOrganization(command.organization),
        CLI_ACTOR,
      );
      return { organization: toOrganizationView(organization) };
    }
    case 'org:list':
      return { organizations: (await organizations.list()).map(toOrganizationView) };
    case 'org:get':
      return {
        organization: toOrganizationView(await organizations.get(assertOrganizationId(command.id))),
      };
    case 'org:update': {
      const organization = await organizations.update(
        assertOrganizationId(command.id),
        toOrganizationPatch(command.patch),
        CLI_ACTOR,
      );
      return { organization: toOrganizationView(organization) };
    }
    case 'credential:create': {
      const organizationId = assertOrganizationId(command.organizationId);
      const issued = await organizations.issueCredential(organizationId, CLI_ACTOR, command.mode);
      return { credential: toIssuedCredentialView(issued) };
    }
    case 'credential:list': {
      const organizationId = assertOrganizationId(command.organizationId);
      const credentials = await organizations.listCredentials(organizationId);
      return { credentials: credentials.map(toCredentialView) };
    }
    case 'credential:reveal': {
      const revealed = await organizations.revealCredential(
        assertPublicKey(command.publicKey),
        CLI_ACTOR,
      );
      return { credential: toRevealedCredentialView(revealed) };
    }
    case 'credential:revoke': {
      const credential = await organizations.revokeCredential(
        assertPublicKey(command.publicKey),
        CLI_ACTOR,
      );
      return { credential: toCredentialView(credential) };
    }
    case 'audit':
      return { entries: (await organizations.latestAudit(command.limit)).map(toAuditEntryView) };
    case 'widget-key:create': {
      const record = await widgetKeys.create(
        assertOrganizationId(command.organizationId),
        { mode: command.mode, name: command.keyName, allowedOrigins: command.allowedOrigins },
        CLI_ACTOR,
      );
      return { widgetKey: toCreatedWidgetKeyView(record) };
    }
    case 'widget-key:list': {
      const keys = await widgetKeys.list(assertOrganizationId(command.organizationId));
      return { widgetKeys: keys.map(toWidgetKeyView) };
    }
    case 'widget-key:revoke': {
      const record = await widgetKeys.revoke(assertWidgetKey(command.key), CLI_ACTOR);
      return { widgetKey: toWidgetKeyView(record) };
    }
    case 'provider:list':
      return { providers: await providers.list() };
    case 'provider:disable':
    case 'provider:enable':
      return {
        provider: await providers.setEnabled(
          command.id,
          command.name === 'provider:enable',
          CLI_ACTOR,
        ),
      };
    case 'swap:show':
      return { swap: await swaps.getForOperator(command.id) };
  }
}
