import { Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  DashboardAccountsService,
  dashboardActor,
  ReauthenticationService,
  type SignedIn,
} from '#app/accounts';
import type { OwnerScope } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { Mailer } from '#app/mail';
import { CredentialsService, ROLL_OVERLAP_CHOICES, type RollOverlap } from '#app/partners';
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
import { issuingBlockedReason } from '../common/issuing.js';
import { textProblem } from '../common/form-rules.js';
import { ReauthPrompts, reauthRefusalText, setRetryAfter } from '../common/reauth.js';
import { SeeOther } from '../common/see-other.js';
import { ApiKeysPage, type ApiKeysView } from './api-keys.page.js';

type Form = Record<string, string>;

const PAGE = '/partner/api-keys';

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
    private readonly reauth: ReauthenticationService,
    private readonly accounts: DashboardAccountsService,
    private readonly mailer: Mailer,
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
  @HttpCode(200)
  async create(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JSX.Element> {
    const name = (form.name ?? '').trim();
    const problem = textProblem(name, 'a name', 100);
    if (problem) {
      res.status(400);
      const view = await this.view(me, req);
      return (
        <ApiKeysPage
          ctx={ctx}
          view={{ ...view, name: [...name].slice(0, 100).join(''), nameError: problem }}
        />
      );
    }
    const created = await this.keys.create(ownerOf(me), name, dashboardActor(me.user));
    const view = await this.view(me, req);
    return (
      <ApiKeysPage
        ctx={ctx}
        view={{
          ...view,
          shown: { kind: 'created', publicKey: created.publicKey, secret: created.secret },
        }}
      />
    );
  }

  @Post(':publicKey/reveal')
  @Roles('owner', 'developer')
  @HttpCode(200)
  async reveal(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
    @Param('publicKey') publicKey: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JSX.Element> {
    const owner = ownerOf(me);
    // Unknown keys are refused before the password is checked, so it cannot be probed here.
    const known = (await this.keys.list(owner)).some((key) => key.publicKey === publicKey);
    if (!known) {
      throw new AppError(ErrorCode.NotFound, 'API key not found.');
    }
    // Wrong proofs here count with failed sign-ins, so a taken-over session cannot guess them.
    const confirmed = await this.reauth.ensure(me, form, req.ip ?? 'unknown');
    if (!confirmed.ok) {
      setRetryAfter(res, confirmed);
      res.status(confirmed.refusal === 'throttled' ? 429 : 403);
      const message = reauthRefusalText(confirmed, 'to reveal the secret');
      const view = await this.view(me, req);
      return <ApiKeysPage ctx={ctx} view={{ ...view, keyError: { publicKey, message } }} />;
    }
    const revealed = await this.refusedAsFlash(req, res, () =>
      this.keys.reveal(owner, publicKey, dashboardActor(me.user)),
    );
    await this.noticeToOwners(me, revealed.credential.name, publicKey);
    return (
      <ApiKeysPage
        ctx={ctx}
        view={{
          ...(await this.view(me, req)),
          shown: { kind: 'revealed', publicKey, secret: revealed.secret },
        }}
      />
    );
  }

  @Post(':publicKey/revoke')
  @Roles('owner', 'developer')
  async revoke(
    @CurrentUser() me: SignedIn,
    @Param('publicKey') publicKey: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<never> {
    const revoked = await this.keys.revoke(ownerOf(me), publicKey, dashboardActor(me.user));
    setFlash(req, res, {
      kind: 'success',
      text: `Key ${revoked.name ?? revoked.publicKey} revoked: it no longer works.`,
    });
    throw new SeeOther(PAGE);
  }

  @Post(':publicKey/roll')
  @Roles('owner', 'developer')
  @HttpCode(200)
  async roll(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
    @Param('publicKey') publicKey: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JSX.Element> {
    const overlap = form.overlap as RollOverlap;
    if (!ROLL_OVERLAP_CHOICES.includes(overlap)) {
      throw new AppError(ErrorCode.InvalidRequest, 'Choose how long the old key keeps working.');
    }
    const rolled = await this.refusedAsFlash(req, res, () =>
      this.keys.roll(ownerOf(me), publicKey, overlap, dashboardActor(me.user)),
    );
    const { previous, replacement } = rolled;
    const expiresAt =
      previous.state.kind === 'expiring' || previous.state.kind === 'expired'
        ? previous.state.at
        : null;
    return (
      <ApiKeysPage
        ctx={ctx}
        view={{
          ...(await this.view(me, req)),
          shown: {
            kind: 'rolled',
            publicKey: replacement.publicKey,
            secret: replacement.secret,
            replaced: { publicKey: previous.publicKey, expiresAt },
          },
        }}
      />
    );
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

  /**
   * Runs `action`; a state that forbids it (a key revoked or rolled meanwhile, in another tab)
   * becomes a message on the page instead of an error page.
   */
  private async refusedAsFlash<T>(
    req: Request,
    res: Response,
    action: () => Promise<T>,
  ): Promise<T> {
    try {
      return await action();
    } catch (error: unknown) {
      if (error instanceof AppError && error.code === ErrorCode.Conflict) {
        setFlash(req, res, { kind: 'error', text: error.message });
        throw new SeeOther(PAGE);
      }
      throw error;
    }
  }

  /** Tells every owner a secret was revealed; a mail that fails is logged, never undoes it. */
  private async noticeToOwners(
    me: SignedIn,
    name: string | null,
    publicKey: string,
  ): Promise<void> {
    const owners = (await this.accounts.listUsers(me.organization.id)).filter(
      (user) => user.role === 'owner' && !user.disabledAt,
    );
    const mode = me.session.mode;
    const text = [
      `${me.user.email} revealed the secret of the ${mode} API key ${name ? `"${name}" ` : ''}(${publicKey}) of ${me.organization.name} at ${new Date().toISOString()}.`,
      '',
      'If you did not expect this, roll or revoke the key on the API keys page of the dashboard.',
    ].join('\n');
    await Promise.all(
      owners.map((owner) =>
        this.mailer.sendQuietly({
          to: owner.email,
          subject: `An API key secret of ${me.organization.name} was revealed`,
          text,
        }),
      ),
    );
  }
}
