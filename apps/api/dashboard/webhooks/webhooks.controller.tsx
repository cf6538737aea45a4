import { Get, Param, Post, Query } from '@nestjs/common';
import { dashboardActor, type SignedIn } from '#app/accounts';
import type { OwnerScope } from '#app/domain';
import { ErrorCode } from '#app/errors';
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
import { FormAnswer } from '../common/form-answer.js';
import { textProblem } from '../common/form-rules.js';
import { type Checked, checked, type FormProblems, submitForm } from '../common/page-form.js';
import {
  EndpointPage,
  endpointPath,
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

/** The endpoint form as typed, checked against the endpoint's rules (`WEBHOOK_ENDPOINT_RULES`). */
function endpointForm(
  form: Form,
  editing: boolean,
): Checked<EndpointValues> & {
  values: EndpointValues;
} {
  const url = (form.url ?? '').trim();
  const description = (form.description ?? '').trim();
  const events = EVENT_TYPES.filter((type) => form[`event:${type}`] === 'on');
  const values: EndpointValues = {
    url: clip(url, URL_MAX),
    description: clip(description, DESCRIPTION_MAX),
    events,
    enabled: editing ? form.enabled === 'on' : true,
  };
  const problems: FormProblems = {
    url: textProblem(url, 'the URL', URL_MAX) ?? undefined,
    description:
      description === ''
        ? undefined
        : (textProblem(description, 'the description', DESCRIPTION_MAX) ?? undefined),
    events: events.length === 0 ? 'Choose at least one event type.' : undefined,
  };
  return { ...checked(values, problems), values };
}

function valuesOf(endpoint: WebhookEndpointView): EndpointValues {
  return {
    url: endpoint.url,
    description: endpoint.description ?? '',
    events: endpoint.events as EventType[],
    enabled: endpoint.enabled,
  };
}

/**
 * The Webhooks pages: the endpoints of the session's mode, one endpoint with its attempts, and
 * what owners and developers do with them (add, edit, disable, delete, rotate the secret, send a
 * test event, resend an event). Viewers read. Every lookup goes through the organization and mode
 * of the session.
 */
@DashboardController('webhooks')
export class WebhooksController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

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
  async create(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
  ): Promise<FormAnswer> {
    const owner = ownerOf(me);
    const input = endpointForm(form, false);
    return submitForm({
      check: () => input,
      submit: ({ url, description, events }) =>
        this.endpoints.create(
          owner,
          { url, description: description === '' ? undefined : description, events: [...events] },
          dashboardActor(me.user),
        ),
      done: async (created) => {
        const view = await this.endpointView(me, created.id, undefined);
        const secret = { kind: 'created', value: created.secret ?? '' } as const;
        return FormAnswer.page(<EndpointPage ctx={ctx} view={{ ...view, secret }} />);
      },
      refused: {
        again: async (errors) => (
          <WebhooksPage
            ctx={ctx}
            view={{
              endpoints: await this.endpoints.list(owner),
              canManage: true,
              livemode: owner.livemode,
              values: input.values,
              errors,
              formError: errors.form,
            }}
          />
        ),
      },
    });
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
  async edit(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
    @Param('id') id: string,
  ): Promise<FormAnswer> {
    const input = endpointForm(form, true);
    return submitForm({
      check: () => input,
      submit: ({ url, description, events, enabled }) =>
        this.endpoints.update(
          id,
          ownerOf(me),
          {
            url,
            description: description === '' ? null : description,
            events: [...events],
            enabled,
          },
          dashboardActor(me.user),
        ),
      done: () => FormAnswer.done(endpointPath(id), 'Endpoint saved.'),
      refused: {
        again: async (errors) => {
          const view = await this.endpointView(me, id, undefined);
          return (
            <EndpointPage
              ctx={ctx}
              view={{ ...view, values: input.values, errors, formError: errors.form }}
            />
          );
        },
      },
    });
  }

  @Post(':id/disable')
  @Roles('owner', 'developer')
  async disable(@CurrentUser() me: SignedIn, @Param('id') id: string): Promise<FormAnswer> {
    await this.endpoints.setEnabled(id, ownerOf(me), false, dashboardActor(me.user));
    return FormAnswer.done(endpointPath(id), 'Endpoint disabled: nothing is sent to it.');
  }

  @Post(':id/enable')
  @Roles('owner', 'developer')
  async enable(@CurrentUser() me: SignedIn, @Param('id') id: string): Promise<FormAnswer> {
    await this.endpoints.setEnabled(id, ownerOf(me), true, dashboardActor(me.user));
    return FormAnswer.done(endpointPath(id), 'Endpoint enabled: deliveries resume.');
  }

  @Post(':id/delete')
  @Roles('owner', 'developer')
  async delete(@CurrentUser() me: SignedIn, @Param('id') id: string): Promise<FormAnswer> {
    await this.endpoints.delete(id, ownerOf(me), dashboardActor(me.user));
    return FormAnswer.done('/partner/webhooks', 'Endpoint deleted.');
  }

  @Post(':id/rotate-secret')
  @Roles('owner', 'developer')
  async rotate(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @Param('id') id: string,
  ): Promise<FormAnswer> {
    const rotated = await this.endpoints.rotateSecret(id, ownerOf(me), dashboardActor(me.user));
    const view = await this.endpointView(me, id, undefined);
    const secret = { kind: 'rotated', value: rotated.secret ?? '' } as const;
    return FormAnswer.page(<EndpointPage ctx={ctx} view={{ ...view, secret }} />);
  }

  @Post(':id/test')
  @Roles('owner', 'developer')
  async sendTestEvent(@CurrentUser() me: SignedIn, @Param('id') id: string): Promise<FormAnswer> {
    const result = await this.endpoints.ping(id, ownerOf(me));
    const delivered =
      result.httpStatus !== null && result.httpStatus >= 200 && result.httpStatus < 300;
    return FormAnswer.redirect(endpointPath(id), {
      kind: delivered ? 'success' : 'error',
      text:
        result.httpStatus !== null
          ? `Test event sent: the endpoint answered HTTP ${result.httpStatus} in ${result.durationMs} ms.`
          : `Test event not delivered: ${result.error ?? 'no answer'}.`,
    });
  }

  @Post(':id/resend')
  @Roles('owner', 'developer')
  resend(
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
    @Param('id') id: string,
  ): Promise<FormAnswer> {
    return resendEvent(this.endpoints, me, id, form.eventId ?? '', endpointPath(id));
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
 * Queues the resend and goes back to `back` with the outcome as its message; a disabled
 * endpoint is a message too, not an error page.
 */
export function resendEvent(
  endpoints: WebhookEndpointsService,
  me: SignedIn,
  endpointId: string,
  eventId: string,
  back: string,
): Promise<FormAnswer> {
  return submitForm({
    submit: () => endpoints.resend(endpointId, ownerOf(me), eventId, dashboardActor(me.user)),
    refusals: [ErrorCode.Conflict],
    done: (resend) =>
      FormAnswer.done(
        back,
        resend.created
          ? `Event ${eventId} queued for sending again.`
          : `A delivery of ${eventId} was already waiting; it is sent now.`,
      ),
    refused: { back },
  });
}
