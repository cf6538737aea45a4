import { Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  dashboardActor,
  DashboardAccountsService,
  ReauthenticationService,
  type SignedIn,
} from '#app/accounts';
import { AppError } from '#app/errors';
import { Mailer } from '#app/mail';
import { OrganizationsService } from '#app/partners';
import { decodeKeyset, type KeysetPageRequest } from '#app/persistence';
import {
  EarningsService,
  LEDGER_KEYSET_ID,
  PayoutAddressService,
  type PayoutAddressChange,
} from '#app/earnings';
import type { PageContext } from '../common/dashboard-request.js';
import {
  AnyRole,
  CurrentUser,
  DashboardController,
  FormBody,
  Page,
  Roles,
} from '../common/dashboard.decorators.js';
import { setFlash } from '../common/flash.js';
import { ReauthPrompts, reauthRefusalText, setRetryAfter } from '../common/reauth.js';
import { SeeOther } from '../common/see-other.js';
import { csvFilename, sendCsv } from '../data/csv-download.js';
import { EarningsPage, NETWORK_LABELS, type PayoutForm } from './earnings.page.js';

const LEDGER_PAGE = 50;

/** A ledger page position from the query; anything that is not one of ours is the first page. */
function ledgerPage(after: unknown, before: unknown): KeysetPageRequest {
  const position = (token: unknown) =>
    typeof token === 'string' ? decodeKeyset(token, LEDGER_KEYSET_ID) : null;
  const afterPosition = position(after);
  if (afterPosition) {
    return { limit: LEDGER_PAGE, after: afterPosition };
  }
  const beforePosition = position(before);
  return beforePosition ? { limit: LEDGER_PAGE, before: beforePosition } : { limit: LEDGER_PAGE };
}

/**
 * The Earnings page (live earnings, whatever the mode: test swaps never earn), its ledger export
 * and the owner's payout address change (re-authentication within 5 minutes, strict check,
 * audit entry, notice to every owner).
 */
@DashboardController('earnings')
export class DashboardEarningsController {
  constructor(
    private readonly earnings: EarningsService,
    private readonly payoutAddress: PayoutAddressService,
    private readonly organizations: OrganizationsService,
    private readonly accounts: DashboardAccountsService,
    private readonly reauthentication: ReauthenticationService,
    private readonly prompts: ReauthPrompts,
    private readonly mailer: Mailer,
  ) {}

  @Get()
  @AnyRole()
  async show(
    @Page() ctx: PageContext,
    @CurrentUser() signedIn: SignedIn,
    @Query('after') after: unknown,
    @Query('before') before: unknown,
    @Req() req: Request,
  ): Promise<JSX.Element> {
    return this.render(ctx, signedIn, req, ledgerPage(after, before));
  }

  /** The whole ledger as CSV, streamed. */
  @Get('export')
  @AnyRole()
  async export(@CurrentUser() signedIn: SignedIn, @Res() res: Response): Promise<void> {
    await sendCsv(
      res,
      csvFilename('earnings', true),
      this.earnings.exportLedgerCsv(signedIn.organization.id),
    );
  }

  @Post('payout-address')
  @Roles('owner')
  @HttpCode(200)
  async changePayoutAddress(
    @Page() ctx: PageContext,
    @CurrentUser() signedIn: SignedIn,
    @FormBody() form: Record<string, string>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JSX.Element> {
    const refused = (status: number, problem: Omit<PayoutForm, 'values'>): Promise<JSX.Element> => {
      res.status(status);
      return this.render(
        ctx,
        signedIn,
        req,
        { limit: LEDGER_PAGE },
        {
          values: {
            payoutAddress: (form.payoutAddress ?? '').slice(0, 128),
            payoutNetwork: form.payoutNetwork ?? '',
          },
          ...problem,
        },
      );
    };
    const confirmed = await this.reauthentication.ensure(signedIn, form, req.ip ?? 'unknown');
    if (!confirmed.ok) {
      setRetryAfter(res, confirmed);
      // Asking for the confirmation is a prompt (2xx); a wrong one is a refused form.
      const status = { missing: 200, wrong: 400, throttled: 429 }[confirmed.refusal];
      return refused(status, {
        errors: { reauth: reauthRefusalText(confirmed, 'to change the payout address') },
      });
    }
    let change: PayoutAddressChange;
    try {
      change = await this.payoutAddress.change(
        signedIn.organization.id,
        { payoutAddress: form.payoutAddress, payoutNetwork: form.payoutNetwork },
        dashboardActor(signedIn.user),
      );
    } catch (error: unknown) {
      if (
        error instanceof AppError &&
        (error.param === 'payoutAddress' || error.param === 'payoutNetwork')
      ) {
        return refused(400, { errors: { [error.param]: error.message } });
      }
      throw error;
    }
    if (change.changed) {
      await this.noticeOwners(signedIn, change);
    }
    setFlash(req, res, {
      kind: 'success',
      text: change.changed
        ? 'Payout address saved. Every owner gets a notice.'
        : 'Payout address unchanged.',
    });
    throw new SeeOther('/partner/earnings');
  }

  private async render(
    ctx: PageContext,
    signedIn: SignedIn,
    req: Request,
    page: KeysetPageRequest,
    form?: PayoutForm,
  ): Promise<JSX.Element> {
    const organizationId = signedIn.organization.id;
    const [summary, ledger, payouts, organization, reauth] = await Promise.all([
      this.earnings.summary(organizationId),
      this.earnings.ledger(organizationId, page),
      this.earnings.payouts(organizationId),
      this.organizations.get(organizationId),
      this.prompts.for(signedIn, req),
    ]);
    return (
      <EarningsPage
        ctx={ctx}
        summary={summary}
        ledger={ledger}
        payouts={payouts}
        destination={{ address: organization.payoutAddress, network: organization.payoutNetwork }}
        canChangePayout={signedIn.user.role === 'owner'}
        reauth={reauth}
        form={form}
      />
    );
  }

  /** Every owner hears of a change of where the money goes, the one who made it included. */
  private async noticeOwners(signedIn: SignedIn, change: PayoutAddressChange): Promise<void> {
    const owners = (await this.accounts.listUsers(signedIn.organization.id)).filter(
      (user) => user.role === 'owner' && user.disabledAt === null,
    );
    const previous = change.previous.address
      ? `${NETWORK_LABELS[change.previous.network]}: ${change.previous.address}`
      : 'none';
    await Promise.all(
      owners.map((owner) =>
        this.mailer.sendQuietly({
          to: owner.email,
          subject: `The payout address of ${signedIn.organization.name} changed`,
          text:
            `${signedIn.user.email} changed the payout address of ${signedIn.organization.name}.\n\n` +
            `New: ${NETWORK_LABELS[change.current.network]}: ${change.current.address}\n` +
            `Before: ${previous}\n\n` +
            'Payouts not yet paid go to the new address. If you did not expect this change, ' +
            'sign in, set the right address and review your team and sessions.',
        }),
      ),
    );
  }
}
