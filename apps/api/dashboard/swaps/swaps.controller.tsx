import { Get, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { SignedIn } from '#app/accounts';
import { AppError, ErrorCode } from '#app/errors';
import { EventsRepository } from '#app/events';
import { parseSwapQuery, SwapQueryService, SwapSearchService } from '#app/swaps';
import { WebhookDeliveriesRepository } from '#app/webhooks';
import type { PageContext } from '../common/dashboard-request.js';
import { AnyRole, CurrentUser, DashboardController, Page } from '../common/dashboard.decorators.js';
import { csvFilename, sendCsv } from '../data/csv-download.js';
import { ownerScopeOf } from '../data/owner-scope.js';
import { SwapPage } from './swap.page.js';
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
    private readonly deliveries: WebhookDeliveriesRepository,
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
    return <SwapPage ctx={ctx} swap={swap} events={events} deliveries={deliveries} />;
  }
}
