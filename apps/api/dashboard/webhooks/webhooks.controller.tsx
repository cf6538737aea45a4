import { Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DashboardAudit, dashboardActor, type SignedIn } from '#app/accounts';
import type { OwnerScope } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { EVENT_TYPES, type EventType } from '#app/events';
import {
  WEBHOOK_ENDPOINT_RULES,
  WebhookEndpointsService,
  type WebhookEndpointView,
} from '#app/webhooks';
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
import { textProblem } from '../common/form-rules.js';
import { SeeOther } from '../common/see-other.js';
import {
  EndpointPage,
  endpointPath,
  type EndpointErrors,
  type EndpointValues,
  type EndpointView,
  WebhooksPage,
} from './webhooks.pages.js';

type Form = Record<string, string>;

const ATTEMPTS_PER_PAGE = 20;
const EMPTY_VALUES: EndpointValues = {
  url: '',
  description: '',
  events: [...EVENT_TYPES],
  enabled: true,
};

export function ownerOf(me: SignedIn): OwnerScope {
  return { organizationId: me.organization.id, livemode: me.session.mode === 'live' };
}

const { urlMaxLength: URL_MAX, descriptionMaxLength: DESCRIPTION_MAX } = WEBHOOK_ENDPOINT_RULES;

/** At most `max` characters of what was typed, to show it back. */
function clip(value: string, max: number): string {
  return [...value].slice(0, max).join('');
}

/** The endpoint form as typed, and what is wrong with it. */
function readEndpointForm(
  form: Form,
  editing: boolean,
): { values: EndpointValues; errors: EndpointErrors } {
  const url = (form.url ?? '').trim();
  const description = (form.description ?? '').trim();
  const events = EVENT_TYPES.filter((type) => form[`event:${type}`] === 'on');
  const errors: EndpointErrors = {};
  const urlProblem = textProblem(url, 'the URL', URL_MAX);
  if (urlProblem) {
    errors.url = urlProblem;
  }
  const descriptionProblem =
    description === '' ? null : textProblem(description, 'the description', DESCRIPTION_MAX);
  if (descriptionProblem) {
    errors.description = descriptionProblem;
  }
  if (events.length === 0) {
    errors.events = 'Choose at least one event type.';
  }
  return {
    values: {
      url: clip(url, URL_MAX),
      description: clip(description, DESCRIPTION_MAX),
      events,
      enabled: editing ? form.enabled === 'on' : true,
    },
    errors,
  };
}

function valuesOf(endpoint: WebhookEndpointView): EndpointValues {
  return {
    url: endpoint.url,
    description: endpoint.description ?? '',
    events: endpoint.events as EventType[],
    enabled: endpoint.enabled,
  };
}

/** A refusal the person can fix in the form (a URL the target rules refuse, the endpoint cap). */
function formRefusal(error: unknown): AppError | null {
  return error instanceof AppError && error.code === ErrorCode.InvalidRequest ? error : null;
}

/**
 * The Webhooks pages: the endpoints of the session's mode, one endpoint with its attempts, and
 * what owners and developers do with them (add, edit, disable, delete, rotate the secret, send a
 * test event, resend an event). Viewers read. Every lookup goes through the organization and mode
 * of the session.
 */
@DashboardController('webhooks')
export class WebhooksController {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly audit: DashboardAudit,
  ) {}

  @Get()
  @AnyRole()
  async list(@Page() ctx: PageContext, @CurrentUser() me: SignedIn): Promise<JSX.Element> {
    return (
      <WebhooksPage
        ctx={ctx}
        view={{
          endpoints: await this.endpoints.list(ownerOf(me)),
          canManage: me.user.role !== 'viewer',
          livemode: me.session.mode === 'live',
          values: EMPTY_VALUES,
          errors: {},
        }}
      />
    );
  }

  @Post()
  @Roles('owner', 'developer')
  @HttpCode(200)
  async create(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JSX.Element> {
    const owner = ownerOf(me);
    const { values, errors } = readEndpointForm(form, false);
    const again = async (formError?: string): Promise<JSX.Element> => {
      res.status(400);
      return (
        <WebhooksPage
          ctx={ctx}
          view={{
            endpoints: await this.endpoints.list(owner),
            canManage: true,
            livemode: owner.livemode,
            values,
            errors,
            formError,
          }}
        />
      );
    };
    if (Object.keys(errors).length > 0) {
      return again();
    }
    let created: WebhookEndpointView;
    try {
      created = await this.endpoints.create(owner, {
        url: values.url,
        description: values.description === '' ? undefined : values.description,
        events: [...values.events],
      });
    } catch (error: unknown) {
      const refusal = formRefusal(error);
      if (!refusal) {
        throw error;
      }
      return again(refusal.message);
    }
    await this.record(me, 'webhook_endpoint.create', created.id, { url: created.url });
    const view = await this.endpointView(me, created.id, undefined);
    return (
      <EndpointPage
        ctx={ctx}
        view={{ ...view, secret: { kind: 'created', value: created.secret ?? '' } }}
      />
    );
  }

  @Get(':id')
  @AnyRole()
  async endpoint(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @Param('id') id: string,
    @Query('before') before: unknown,
  ): Promise<JSX.Element> {
    const view = await this.endpointView(me, id, typeof before === 'string' ? before : undefined);
    return <EndpointPage ctx={ctx} view={view} />;
  }

  @Post(':id')
  @Roles('owner', 'developer')
  @HttpCode(200)
  async edit(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
    @Param('id') id: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JSX.Element> {
    const { values, errors } = readEndpointForm(form, true);
    const again = async (formError?: string): Promise<JSX.Element> => {
      const view = await this.endpointView(me, id, undefined);
      res.status(400);
      return <EndpointPage ctx={ctx} view={{ ...view, values, errors, formError }} />;
    };
    if (Object.keys(errors).length > 0) {
      await this.endpoints.get(id, ownerOf(me));
      return again();
    }
    try {
      await this.endpoints.update(id, ownerOf(me), {
        url: values.url,
        description: values.description === '' ? null : values.description,
        events: [...values.events],
        enabled: values.enabled,
      });
    } catch (error: unknown) {
      const refusal = formRefusal(error);
      if (!refusal) {
        throw error;
      }
      return again(refusal.message);
    }
    await this.record(me, 'webhook_endpoint.update', id, {
      url: values.url,
      events: values.events,
      enabled: values.enabled,
    });
    setFlash(req, res, { kind: 'success', text: 'Endpoint saved.' });
    throw new SeeOther(endpointPath(id));
  }

  @Post(':id/disable')
  @Roles('owner', 'developer')
  async disable(
    @CurrentUser() me: SignedIn,
    @Param('id') id: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<never> {
    await this.endpoints.update(id, ownerOf(me), { enabled: false });
    await this.record(me, 'webhook_endpoint.disable', id);
    setFlash(req, res, { kind: 'success', text: 'Endpoint disabled: nothing is sent to it.' });
    throw new SeeOther(endpointPath(id));
  }

  @Post(':id/enable')
  @Roles('owner', 'developer')
  async enable(
    @CurrentUser() me: SignedIn,
    @Param('id') id: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<never> {
    await this.endpoints.update(id, ownerOf(me), { enabled: true });
    await this.record(me, 'webhook_endpoint.enable', id);
    setFlash(req, res, { kind: 'success', text: 'Endpoint enabled: deliveries resume.' });
    throw new SeeOther(endpointPath(id));
  }

  @Post(':id/delete')
  @Roles('owner', 'developer')
  async delete(
    @CurrentUser() me: SignedIn,
    @Param('id') id: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<never> {
    await this.endpoints.delete(id, ownerOf(me));
    await this.record(me, 'webhook_endpoint.delete', id);
    setFlash(req, res, { kind: 'success', text: 'Endpoint deleted.' });
    throw new SeeOther('/partner/webhooks');
  }

  @Post(':id/rotate-secret')
  @Roles('owner', 'developer')
  @HttpCode(200)
  async rotate(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @Param('id') id: string,
  ): Promise<JSX.Element> {
    const rotated = await this.endpoints.rotateSecret(id, ownerOf(me));
    await this.record(me, 'webhook_endpoint.rotate_secret', id);
    const view = await this.endpointView(me, id, undefined);
    return (
      <EndpointPage
        ctx={ctx}
        view={{ ...view, secret: { kind: 'rotated', value: rotated.secret ?? '' } }}
      />
    );
  }

  @Post(':id/test')
  @Roles('owner', 'developer')
  async sendTestEvent(
    @CurrentUser() me: SignedIn,
    @Param('id') id: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<never> {
    const result = await this.endpoints.ping(id, ownerOf(me));
    const delivered =
      result.httpStatus !== null && result.httpStatus >= 200 && result.httpStatus < 300;
    setFlash(req, res, {
      kind: delivered ? 'success' : 'error',
      text:
        result.httpStatus !== null
          ? `Test event sent: the endpoint answered HTTP ${result.httpStatus} in ${result.durationMs} ms.`
          : `Test event not delivered: ${result.error ?? 'no answer'}.`,
    });
    throw new SeeOther(endpointPath(id));
  }

  @Post(':id/resend')
  @Roles('owner', 'developer')
  async resend(
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
    @Param('id') id: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<never> {
    await resendAndTell(this.endpoints, me, id, form.eventId ?? '', req, res);
    throw new SeeOther(endpointPath(id));
  }

  /** Who changed which endpoint, in the organization's audit log; never a secret. */
  private record(
    me: SignedIn,
    action: string,
    id: string,
    details: Record<string, unknown> = {},
  ): Promise<void> {
    return this.audit.record(
      me.user,
      action,
      { type: 'webhook_endpoint', id },
      { mode: me.session.mode, ...details },
    );
  }

  private async endpointView(
    me: SignedIn,
    id: string,
    before: string | undefined,
  ): Promise<EndpointView> {
    const owner = ownerOf(me);
    const endpoint = await this.endpoints.get(id, owner);
    const page = await this.endpoints.attemptPage(id, owner, {
      before,
      limit: ATTEMPTS_PER_PAGE,
    });
    return {
      endpoint,
      attempts: page.attempts,
      hasOlder: page.hasMore,
      paged: before !== undefined,
      canManage: me.user.role !== 'viewer',
      values: valuesOf(endpoint),
      errors: {},
    };
  }
}

/**
 * Queues the resend and leaves the outcome as the next page's message; a disabled endpoint is a
 * message too, not an error page.
 */
export async function resendAndTell(
  endpoints: WebhookEndpointsService,
  me: SignedIn,
  endpointId: string,
  eventId: string,
  req: Request,
  res: Response,
): Promise<void> {
  try {
    const resend = await endpoints.resend(
      endpointId,
      ownerOf(me),
      eventId,
      dashboardActor(me.user),
    );
    setFlash(req, res, {
      kind: 'success',
      text: resend.created
        ? `Event ${eventId} queued for sending again.`
        : `A delivery of ${eventId} was already waiting; it is sent now.`,
    });
  } catch (error: unknown) {
    if (error instanceof AppError && error.code === ErrorCode.Conflict) {
      setFlash(req, res, { kind: 'error', text: error.message });
      return;
    }
    throw error;
  }
}
