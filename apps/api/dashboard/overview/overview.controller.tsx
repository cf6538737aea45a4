import { Get } from '@nestjs/common';
import type { SignedIn } from '#app/accounts';
import { ActivityService, EarningsService } from '#app/earnings';
import type { PageContext } from '../common/dashboard-request.js';
import { AnyRole, CurrentUser, DashboardController, Page } from '../common/dashboard.decorators.js';
import { ownerScopeOf } from '../data/owner-scope.js';
import { OverviewPage } from './overview.page.js';

/** The days the overview charts. */
const ACTIVITY_DAYS = 30;

@DashboardController()
export class OverviewController {
  constructor(
    private readonly activity: ActivityService,
    private readonly earnings: EarningsService,
  ) {}

  @Get()
  @AnyRole()
  async overview(
    @Page() ctx: PageContext,
    @CurrentUser() signedIn: SignedIn,
  ): Promise<JSX.Element> {
    const [activity, earnings] = await Promise.all([
      this.activity.lastDays(ownerScopeOf(signedIn), ACTIVITY_DAYS),
      this.earnings.summary(signedIn.organization.id),
    ]);
    return <OverviewPage ctx={ctx} signedIn={signedIn} activity={activity} earnings={earnings} />;
  }
}
