import { Get, Header, Inject, Param, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { dashboardActor, type SignedIn } from '#app/accounts';
import { AppError, ErrorCode } from '#app/errors';
import {
  assertWidgetKey,
  MAX_ALLOWED_ORIGIN_LENGTH,
  MAX_ALLOWED_ORIGINS,
  MAX_WIDGET_KEY_NAME_LENGTH,
  toWidgetKeyView,
  type WidgetKeyView,
  WidgetKeysService,
  widgetAccent,
  widgetTheme,
} from '#app/widgets';
import { widgetSnippet } from './widget-snippet.js';
import { ownerScopeOf } from '../data/owner-scope.js';
import { DASHBOARD_PREVIEW_CSP } from '../common/dashboard-http.middleware.js';
import type { PageContext } from '../common/dashboard-request.js';
import { DASHBOARD_SETTINGS, type DashboardSettings } from '../common/dashboard.config.js';
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
import { type FormProblems, submitForm } from '../common/page-form.js';
import { serviceOrigin } from '../../platform/site/origin.js';
import {
  PAGE,
  WidgetPage,
  type WidgetKeyForm,
  type WidgetPageView,
  type WidgetPreview,
} from './widget.page.js';

type Form = Record<string, string>;

/** What a refused form shows again: the longest a valid one could be (CRLF lines), no more. */
const MAX_ORIGINS_TEXT = MAX_ALLOWED_ORIGINS * (MAX_ALLOWED_ORIGIN_LENGTH + 2);

/** "One origin per line": the non-empty lines, trimmed, in order. */
function originLines(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** The form as typed, with the refusal of the keys service beside the field it names. */
function formWithProblems(form: Form, problems: FormProblems): WidgetKeyForm {
  const { name, allowedOrigins, ...whole } = problems;
  return {
    name: [...(form.name ?? '')].slice(0, MAX_WIDGET_KEY_NAME_LENGTH).join(''),
    allowedOrigins: [...(form.allowedOrigins ?? '')].slice(0, MAX_ORIGINS_TEXT).join(''),
    nameError: name,
    originsError: allowedOrigins,
    error: Object.values(whole).find((problem) => problem !== undefined),
  };
}

/**
 * The Widget page: the organization's widget keys in the session's mode, each with its
 * allowed origins, a live preview of the hosted widget for a chosen key, and the snippet to
 * paste. Owners and developers create and revoke keys; viewers read. Every check of a new key
 * (name, origins, mode) is the keys service's, the same as for operators.
 */
@DashboardController('widget')
export class DashboardWidgetController {
  constructor(
    private readonly widgetKeys: WidgetKeysService,
    @Inject(DASHBOARD_SETTINGS) private readonly settings: DashboardSettings,
  ) {}

  @Get()
  @AnyRole()
  @Header('Content-Security-Policy', DASHBOARD_PREVIEW_CSP)
  async page(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
  ): Promise<JSX.Element> {
    return <WidgetPage ctx={ctx} view={await this.view(me, req, query)} />;
  }

  @Post()
  @Roles('owner', 'developer')
  @Header('Content-Security-Policy', DASHBOARD_PREVIEW_CSP)
  create(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const blocked = issuingBlockedReason(me, 'widget keys');
    if (blocked) {
      throw new AppError(ErrorCode.Forbidden, blocked);
    }
    return submitForm({
      submit: () =>
        this.widgetKeys.create(
          me.organization.id,
          {
            mode: me.session.mode,
            name: form.name ?? '',
            allowedOrigins: originLines(form.allowedOrigins ?? ''),
          },
          dashboardActor(me.user),
        ),
      done: (created) =>
        FormAnswer.done(
          `${PAGE}?key=${encodeURIComponent(created.key)}#preview`,
          `Widget key ${created.name} created. Its preview and snippet are below.`,
        ),
      refused: {
        again: async (problems) => (
          <WidgetPage
            ctx={ctx}
            view={{ ...(await this.view(me, req, {})), form: formWithProblems(form, problems) }}
          />
        ),
      },
    });
  }

  @Post(':key/revoke')
  @Roles('owner', 'developer')
  async revoke(@CurrentUser() me: SignedIn, @Param('key') key: string): Promise<FormAnswer> {
    const revoked = await this.widgetKeys.revoke(
      assertWidgetKey(key),
      dashboardActor(me.user),
      ownerScopeOf(me),
    );
    return FormAnswer.done(
      PAGE,
      `Widget key ${revoked.name} revoked: the widget no longer loads with it.`,
    );
  }

  private async view(
    me: SignedIn,
    req: Request,
    query: Record<string, unknown>,
  ): Promise<WidgetPageView> {
    const keys = (await this.widgetKeys.listFor(ownerScopeOf(me))).map(toWidgetKeyView);
    const reason = issuingBlockedReason(me, 'widget keys');
    const chosen = this.chosen(keys, query.key);
    return {
      keys,
      livemode: me.session.mode === 'live',
      canManage: me.user.role !== 'viewer',
      canIssue: reason === undefined,
      blockedReason: reason,
      preview: chosen && !chosen.revokedAt ? this.preview(chosen, req, query) : undefined,
      revokedChoice: chosen?.revokedAt ? chosen : undefined,
    };
  }

  /**
   * The key asked for (`?key=`), which must be one of the list, or else the newest active one.
   * Any other value, another organization's key included, is not found.
   */
  private chosen(keys: readonly WidgetKeyView[], asked: unknown): WidgetKeyView | undefined {
    if (asked === undefined) {
      return keys.findLast((key) => !key.revokedAt);
    }
    const found = keys.find((key) => key.key === asked);
    if (!found) {
      throw new AppError(ErrorCode.NotFound, 'Widget key not found.');
    }
    return found;
  }

  private preview(key: WidgetKeyView, req: Request, query: Record<string, unknown>): WidgetPreview {
    const theme = widgetTheme(query.theme);
    const accentText = typeof query.accent === 'string' ? query.accent.trim().slice(0, 7) : '';
    const accent = accentText === '' ? null : widgetAccent(accentText);
    const src = new URLSearchParams({ key: key.key, theme });
    if (accent) {
      src.set('accent', accent);
    }
    return {
      key,
      theme,
      accentText,
      accentError:
        accentText !== '' && accent === null
          ? 'Enter a hex colour such as #2563eb, or leave it empty.'
          : null,
      src: `/widget?${src.toString()}`,
      snippet: widgetSnippet(serviceOrigin(req, this.settings.publicUrl), key.key, {
        theme,
        accent,
      }),
    };
  }
}
