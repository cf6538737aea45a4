import { Get, Param, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { DashboardAccountsService, dashboardActor, type SignedIn } from '#app/accounts';
import type { OwnerScope } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { CREDENTIAL_NAME_MAX_LENGTH, CredentialsService } from '#app/partners';
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
import { issuingBlockedReason } from '../common/issuing.js';
import { textProblem } from '../common/form-rules.js';
import { checked, submitForm } from '../common/page-form.js';
import { ReauthPrompts } from '../common/reauth.js';
import { Reauthenticated, type RefusedReauth } from '../common/reauthenticated.js';
import { ApiKeysPage, type ApiKeysView } from './api-keys.page.js';

type Form = Record<string, string>;

const PAGE = '/partner/api-keys';
/**
 * A state that forbids a change (a key revoked or rolled meanwhile, in another tab) is a message
 * on the page instead of an error page.
 */
const BACK = { back: PAGE };

function ownerOf(me: SignedIn): OwnerScope {
  return { organizationId: me.organization.id, livemode: me.session.mode === 'live' };
}

/**
 * The API keys page: the organization's keys in the session's mode. Owners and developers
 * create, reveal (after a re-authentication within 5 minutes), roll and revoke; viewers read the
 * list only, never a secret. A secret is only ever in the answer to the POST that made or
 * revealed it (`no-store`, like every dashboard answer), never in a redirect or a cookie.
 */
@DashboardController('api-keys')
export class ApiKeysController {
  constructor(
    private readonly keys: CredentialsService,
    private readonly accounts: DashboardAccountsService,
    private readonly prompts: ReauthPrompts,
  ) {}

  @Get()
  @AnyRole()
  async page(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @Req() req: Request,
  ): Promise<JSX.Element> {
    return <ApiKeysPage ctx={ctx} view={await this.view(me, req)} />;
  }

  @Post()
  @Roles('owner', 'developer')
  create(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const name = (form.name ?? '').trim();
    return submitForm({
      check: () =>
        checked(name, {
          name: textProblem(name, 'a name', CREDENTIAL_NAME_MAX_LENGTH) ?? undefined,
        }),
      submit: (name) => this.keys.create(ownerOf(me), name, dashboardActor(me.user)),
      done: async (created) => {
        const { publicKey, secret } = created;
        const shown = { kind: 'created', publicKey, secret } as const;
        return FormAnswer.page(
          <ApiKeysPage ctx={ctx} view={{ ...(await this.view(me, req)), shown }} />,
        );
      },
      refused: {
        again: async (problems) => (
          <ApiKeysPage
            ctx={ctx}
            view={{
              ...(await this.view(me, req)),
              name: [...name].slice(0, CREDENTIAL_NAME_MAX_LENGTH).join(''),
              nameError: problems.name ?? problems.form,
            }}
          />
        ),
      },
    });
  }

  /** Wrong proofs here count with failed sign-ins, so a taken-over session cannot guess them. */
  @Post(':publicKey/reveal')
  @Roles('owner', 'developer')
  @Reauthenticated<ApiKeysController>('to reveal the secret', {
    again: (page, refused) => page.revealRefused(refused),
    status: { missing: 403, wrong: 403 },
  })
  reveal(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @Param('publicKey') publicKey: string,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    return submitForm({
      submit: () => this.keys.reveal(ownerOf(me), publicKey, dashboardActor(me.user)),
      refusals: [ErrorCode.Conflict],
      done: async (revealed) => {
        await this.noticeToOwners(me, revealed.credential.name, publicKey);
        const shown = { kind: 'revealed', publicKey, secret: revealed.secret } as const;
        return FormAnswer.page(
          <ApiKeysPage ctx={ctx} view={{ ...(await this.view(me, req)), shown }} />,
        );
      },
      refused: BACK,
    });
  }

  @Post(':publicKey/revoke')
  @Roles('owner', 'developer')
  async revoke(
    @CurrentUser() me: SignedIn,
    @Param('publicKey') publicKey: string,
  ): Promise<FormAnswer> {
    const revoked = await this.keys.revoke(ownerOf(me), publicKey, dashboardActor(me.user));
    return FormAnswer.done(
      PAGE,
      `Key ${revoked.name ?? revoked.publicKey} revoked: it no longer works.`,
    );
  }

  @Post(':publicKey/roll')
  @Roles('owner', 'developer')
  roll(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
    @Param('publicKey') publicKey: string,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    return submitForm({
      submit: () =>
        this.keys.roll(ownerOf(me), publicKey, form.overlap ?? '', dashboardActor(me.user)),
      refusals: [ErrorCode.Conflict],
      done: async ({ previous, replacement }) => {
        const expiresAt =
          previous.state.kind === 'expiring' || previous.state.kind === 'expired'
            ? previous.state.at
            : null;
        const shown = {
          kind: 'rolled',
          publicKey: replacement.publicKey,
          secret: replacement.secret,
          replaced: { publicKey: previous.publicKey, expiresAt },
        } as const;
        return FormAnswer.page(
          <ApiKeysPage ctx={ctx} view={{ ...(await this.view(me, req)), shown }} />,
        );
      },
      refused: BACK,
    });
  }

  /**
   * The page with a refused re-authentication beside the key's "Reveal secret". A key that is
   * not the session's is not found, whatever the proof.
   */
  async revealRefused({ ctx, me, req, message }: RefusedReauth): Promise<JSX.Element> {
    const { publicKey } = req.params;
    const view = await this.view(me, req);
    if (typeof publicKey !== 'string' || !view.keys.some((key) => key.publicKey === publicKey)) {
      throw new AppError(ErrorCode.NotFound, 'API key not found.');
    }
    return <ApiKeysPage ctx={ctx} view={{ ...view, keyError: { publicKey, message } }} />;
  }

  private async view(me: SignedIn, req: Request): Promise<ApiKeysView> {
    const reason = issuingBlockedReason(me, 'keys');
    return {
      keys: await this.keys.list(ownerOf(me)),
      canManage: me.user.role !== 'viewer',
      reauth: await this.prompts.for(me, req),
      canIssue: reason === undefined,
      blockedReason: reason,
      livemode: me.session.mode === 'live',
    };
  }

  /** Tells every owner a secret was revealed. */
  private noticeToOwners(me: SignedIn, name: string | null, publicKey: string): Promise<void> {
    return this.accounts.mailOwners(me.organization.id, {
      subject: `An API key secret of ${me.organization.name} was revealed`,
      text: [
        `${me.user.email} revealed the secret of the ${me.session.mode} API key ${name ? `"${name}" ` : ''}(${publicKey}) of ${me.organization.name} at ${new Date().toISOString()}.`,
        '',
        'If you did not expect this, roll or revoke the key on the API keys page of the dashboard.',
      ].join('\n'),
    });
  }
}
