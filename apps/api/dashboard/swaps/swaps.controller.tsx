import { Get, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { SignedIn } from '#app/accounts';
import { isAllowedTransition, type SwapStatus } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { EventsRepository } from '#app/events';
import { parseSwapQuery, SwapQueryService, SwapSearchService, type SwapView } from '#app/swaps';
import { TEST_HELPER_STATUSES, TestHelpersService, type TestHelperStatus } from '#app/test-mode';
import { WebhookDeliveryHistory } from '#app/webhooks';
import type { PageContext } from '../common/dashboard-request.js';
import {
  AnyRole,
  CurrentUser,
  DashboardController,
  FormBody,
  Page,
  Roles,
} from '../common/dashboard.decorators.js';
import { FormAnswer } from '../common/form-answer.js';
import { submitForm } from '../common/page-form.js';
import { csvFilename, sendCsv } from '../data/csv-download.js';
import { ownerScopeOf } from '../data/owner-scope.js';
import { SwapPage, type TestHelperForms } from './swap.page.js';

type Form = Record<string, string>;

/** The deposits "Simulate deposit", "Short deposit" and "Late deposit" send. */
const DEPOSIT_KINDS = ['full', 'short', 'late'] as const;
type DepositKind = (typeof DEPOSIT_KINDS)[number];

function swapPage(id: string): string {
  return `/partner/swaps/${encodeURIComponent(id)}`;
}

/** The statuses a swap in `status` can be forced into. */
function forcibleFrom(status: SwapStatus): TestHelperStatus[] {
  return TEST_HELPER_STATUSES.filter((to) => isAllowedTransition(status, to));
}
import { SwapsPage } from './swaps.page.js';

/**
 * The Swaps page (filters, search, keyset pages), its CSV export and a swap's page. Every read
 * is scoped to the signed-in user's organization and the session's mode; another
 * organization's or mode's swap is not found.
 */
@DashboardController('swaps')
@AnyRole()
export class DashboardSwapsController {
  constructor(
    private readonly search: SwapSearchService,
    private readonly swaps: SwapQueryService,
    private readonly events: EventsRepository,
    private readonly deliveries: WebhookDeliveryHistory,
    private readonly helpers: TestHelpersService,
  ) {}

  @Get()
  async list(
    @Page() ctx: PageContext,
    @CurrentUser() signedIn: SignedIn,
    @Query() query: Record<string, unknown>,
  ): Promise<JSX.Element> {
    const owner = ownerScopeOf(signedIn);
    const parsed = parseSwapQuery(query);
    const [page, pairs] = await Promise.all([
      this.search.search(owner, parsed.filters, parsed.page),
      this.search.pairs(owner),
    ]);
    return (
      <SwapsPage
        ctx={ctx}
        filters={parsed.filters}
        errors={parsed.errors}
        page={page}
        pairs={pairs}
      />
    );
  }

  /** The filtered swaps as CSV, streamed; the filters come as the page's query string. */
  @Get('export')
  async export(
    @CurrentUser() signedIn: SignedIn,
    @Query() query: Record<string, unknown>,
    @Res() res: Response,
  ): Promise<void> {
    const owner = ownerScopeOf(signedIn);
    const { filters, errors } = parseSwapQuery(query);
    const problem = errors.find((e) => e.param !== 'after' && e.param !== 'before');
    if (problem) {
      throw new AppError(ErrorCode.InvalidRequest, problem.message, { param: problem.param });
    }
    await sendCsv(res, csvFilename('swaps', owner.livemode), this.search.exportCsv(owner, filters));
  }

  @Get(':id')
  async swap(
    @Page() ctx: PageContext,
    @CurrentUser() signedIn: SignedIn,
    @Param('id') id: string,
  ): Promise<JSX.Element> {
    const owner = ownerScopeOf(signedIn);
    const swap = await this.swaps.get(id, owner);
    const [events, deliveries] = await Promise.all([
      this.events.listForSwap(swap.id, owner),
      this.deliveries.listForSwap(swap.id, owner),
    ]);
    return (
      <SwapPage
        ctx={ctx}
        swap={swap}
        events={events}
        deliveries={deliveries}
        testHelpers={this.testHelperForms(signedIn, swap)}
      />
    );
  }

  /**
   * A test swap's deposit, as the test helper `POST /v1/test_helpers/swaps/{id}/deposit` makes
   * it: the expected amount, a short one, or after the deadline. A live swap is not found.
   */
  @Post(':id/test-helpers/deposit')
  @Roles('owner', 'developer')
  deposit(
    @CurrentUser() signedIn: SignedIn,
    @Param('id') id: string,
    @FormBody() form: Form,
  ): Promise<FormAnswer> {
    const kind = form.kind as DepositKind;
    if (!DEPOSIT_KINDS.includes(kind)) {
      throw new AppError(ErrorCode.InvalidRequest, 'Choose a deposit to simulate.');
    }
    const input =
      kind === 'short' ? { amount: (form.amount ?? '').trim() } : { late: kind === 'late' };
    return helped(
      id,
      () => this.helpers.deposit(ownerScopeOf(signedIn), id, input),
      (swap) => `Deposit simulated: the swap is ${swap.status}.`,
    );
  }

  /** A test swap forced into a status, as `POST /v1/test_helpers/swaps/{id}/status` does. */
  @Post(':id/test-helpers/status')
  @Roles('owner', 'developer')
  forceStatus(
    @CurrentUser() signedIn: SignedIn,
    @Param('id') id: string,
    @FormBody() form: Form,
  ): Promise<FormAnswer> {
    const status = form.status as TestHelperStatus;
    if (!TEST_HELPER_STATUSES.includes(status)) {
      throw new AppError(ErrorCode.InvalidRequest, 'Choose a status.');
    }
    return helped(
      id,
      () => this.helpers.forceStatus(ownerScopeOf(signedIn), id, status),
      (swap) => `The swap is ${swap.status} now.`,
    );
  }

  /** The helpers' forms, on a test swap's page for those who may use them. */
  private testHelperForms(signedIn: SignedIn, swap: SwapView): TestHelperForms | undefined {
    if (swap.livemode || signedIn.user.role === 'viewer') {
      return undefined;
    }
    return { deposit: swap.status === 'waiting', statuses: forcibleFrom(swap.status) };
  }
}

/**
 * Runs a test helper; what the swap's state or the typed amount refuses (a second deposit, a
 * status it cannot move to) comes back to the swap's page as a message, not an error page.
 */
function helped(
  id: string,
  action: () => Promise<SwapView>,
  done: (swap: SwapView) => string,
): Promise<FormAnswer> {
  return submitForm({
    submit: action,
    refusals: [ErrorCode.Conflict, ErrorCode.InvalidRequest],
    done: (swap) => FormAnswer.done(swapPage(swap.id), done(swap)),
    refused: { back: swapPage(id) },
  });
}
