import { Get, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { dashboardActor, DashboardAccountsService, type SignedIn } from '#app/accounts';
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
  formFields,
  Page,
  Roles,
} from '../common/dashboard.decorators.js';
import { FormAnswer } from '../common/form-answer.js';
import { submitForm } from '../common/page-form.js';
import { ReauthPrompts } from '../common/reauth.js';
import { Reauthenticated } from '../common/reauthenticated.js';
import { csvFilename, sendCsv } from '../data/csv-download.js';
import { EarningsPage, NETWORK_LABELS, type PayoutForm } from './earnings.page.js';

const LEDGER_PAGE = 50;
const PAGE = '/partner/earnings';

/** The payout form as typed, to show it again. */
function payoutValues(form: Record<string, string>): PayoutForm['values'] {
  return {
    payoutAddress: (form.payoutAddress ?? '').slice(0, 128),
    payoutNetwork: form.payoutNetwork ?? '',
  };
}

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
    private readonly prompts: ReauthPrompts,
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
  @Reauthenticated<DashboardEarningsController>('to change the payout address', {
    again: (page, { ctx, me, req, message }) =>
      page.render(
        ctx,
        me,
        req,
        { limit: LEDGER_PAGE },
        {
          values: payoutValues(formFields(req.body)),
          errors: { reauth: message },
        },
      ),
    // Asking for the confirmation is a prompt (2xx); a wrong one is a refused form.
    status: { missing: 200, wrong: 400 },
  })
  changePayoutAddress(
    @Page() ctx: PageContext,
    @CurrentUser() signedIn: SignedIn,
    @FormBody() form: Record<string, string>,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    return submitForm({
      submit: () =>
        this.payoutAddress.change(
          signedIn.organization.id,
          { payoutAddress: form.payoutAddress, payoutNetwork: form.payoutNetwork },
          dashboardActor(signedIn.user),
        ),
      refusals: (error) => error.param === 'payoutAddress' || error.param === 'payoutNetwork',
      done: async (change) => {
        if (!change.changed) {
          return FormAnswer.done(PAGE, 'Payout address unchanged.');
        }
        await this.noticeOwners(signedIn, change);
        return FormAnswer.done(PAGE, 'Payout address saved. Every owner gets a notice.');
      },
      refused: {
        again: (errors) =>
          this.render(
            ctx,
            signedIn,
            req,
            { limit: LEDGER_PAGE },
            {
              values: payoutValues(form),
              errors,
            },
          ),
      },
    });
  }

  /** The page, with the payout form as typed and its problems when it was refused. */
  async render(
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
  private noticeOwners(signedIn: SignedIn, change: PayoutAddressChange): Promise<void> {
    const previous = change.previous.address
      ? `${NETWORK_LABELS[change.previous.network]}: ${change.previous.address}`
      : 'none';
    return this.accounts.mailOwners(signedIn.organization.id, {
      subject: `The payout address of ${signedIn.organization.name} changed`,
      text:
        `${signedIn.user.email} changed the payout address of ${signedIn.organization.name}.\n\n` +
        `New: ${NETWORK_LABELS[change.current.network]}: ${change.current.address}\n` +
        `Before: ${previous}\n\n` +
        'Payouts not yet paid go to the new address. If you did not expect this change, ' +
        'sign in, set the right address and review your team and sessions.',
    });
  }
}
