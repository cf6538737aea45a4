import { Get, Inject, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { dashboardActor, type SignedIn } from '#app/accounts';
import { modeUsableIn, type OwnerScope } from '#app/domain';
import { CredentialsService, OnboardingService } from '#app/partners';
import { serviceOrigin } from '../../platform/site/origin.js';
import type { PageContext } from '../common/dashboard-request.js';
import { DASHBOARD_SETTINGS, type DashboardSettings } from '../common/dashboard.config.js';
import {
  AnyRole,
  CurrentUser,
  DashboardController,
  Page,
  Roles,
} from '../common/dashboard.decorators.js';
import { FormAnswer } from '../common/form-answer.js';
import { GetStartedPage, type GetStartedView } from './get-started.page.js';
import { walkthrough } from './walkthrough.js';

/** What a test key made on this page is called on API keys. */
const TEST_KEY_NAME = 'Get started';

function testOwner(me: SignedIn): OwnerScope {
  return { organizationId: me.organization.id, livemode: false };
}

/**
 * "Get started" (docs/decisions.md, "Dashboard: Get started"): whatever the session's mode, it
 * speaks of test mode, where a partner starts; its checklist reads what the organization did.
 * "Create a test key" answers the page with the new secret, once, as "Create key" does; the
 * credentials service refuses it where the organization's status allows no test key.
 */
@DashboardController('get-started')
export class GetStartedController {
  constructor(
    private readonly keys: CredentialsService,
    private readonly onboarding: OnboardingService,
    @Inject(DASHBOARD_SETTINGS) private readonly settings: DashboardSettings,
  ) {}

  @Get()
  @AnyRole()
  async page(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @Req() req: Request,
  ): Promise<JSX.Element> {
    return <GetStartedPage ctx={ctx} view={await this.view(me, req)} />;
  }

  @Post('test-key')
  @Roles('owner', 'developer')
  async createTestKey(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const created = await this.keys.create(testOwner(me), TEST_KEY_NAME, dashboardActor(me.user));
    const view = await this.view(me, req);
    const { publicKey, secret } = created;
    return FormAnswer.page(
      <GetStartedPage ctx={ctx} view={{ ...view, created: { publicKey, secret } }} />,
    );
  }

  private async view(me: SignedIn, req: Request): Promise<GetStartedView> {
    const [keys, progress] = await Promise.all([
      this.keys.list(testOwner(me)),
      this.onboarding.progress(me.organization.id),
    ]);
    const usable = keys.filter(
      (key) => key.state.kind === 'active' || key.state.kind === 'expiring',
    );
    const testKey = usable.reduce<(typeof usable)[number] | null>(
      (newest, key) => (newest === null || key.createdAt > newest.createdAt ? key : newest),
      null,
    );
    const origin = serviceOrigin(req, this.settings.publicUrl);
    const mayIssue = modeUsableIn(me.organization.status, false);
    return {
      origin,
      progress,
      testKey,
      walkthrough: testKey ? walkthrough(origin, testKey.publicKey) : null,
      canCreateTestKey: me.user.role !== 'viewer' && mayIssue,
      blockedReason: me.user.role !== 'viewer' && !mayIssue ? testKeysBlocked(me) : undefined,
      testMode: me.session.mode === 'test',
    };
  }
}

function testKeysBlocked(me: SignedIn): string {
  return `Your organization is ${me.organization.status.replace('_', ' ')}: no new test keys can be created.`;
}
