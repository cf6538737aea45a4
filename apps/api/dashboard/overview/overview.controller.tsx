import { Get } from '@nestjs/common';
import type { SignedIn } from '#app/accounts';
import type { PageContext } from '../shared/dashboard-request.js';
import { AnyRole, CurrentUser, DashboardController, Page } from '../shared/dashboard.decorators.js';
import { OverviewPage } from './overview.page.js';

@DashboardController()
export class OverviewController {
  @Get()
  @AnyRole()
  overview(@Page() ctx: PageContext, @CurrentUser() signedIn: SignedIn): JSX.Element {
    return <OverviewPage ctx={ctx} signedIn={signedIn} />;
  }
}
