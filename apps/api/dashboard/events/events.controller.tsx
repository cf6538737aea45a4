import { Get, Param, Post, Query } from '@nestjs/common';
import type { SignedIn } from '#app/accounts';
import { AppError, ErrorCode } from '#app/errors';
import { EVENT_TYPES, EventsQueryService, type EventType } from '#app/events';
import { WebhookEndpointsService } from '#app/webhooks';
import type { PageContext } from '../common/dashboard-request.js';
import {
  AnyRole,
  CurrentUser,
  DashboardController,
  FormBody,
  Page,
  Roles,
} from '../common/dashboard.decorators.js';
import type { FormAnswer } from '../common/form-answer.js';
import { ownerOf, resendEvent } from '../webhooks/webhooks.controller.js';
import { EventPage, eventPath, EventsPage } from './events.pages.js';

const EVENTS_PER_PAGE = 25;

function optionalText(value: unknown, param: string): string | undefined {
  if (value === undefined || value === '') {
    return undefined;
  }
  if (typeof value !== 'string') {
    throw new AppError(ErrorCode.InvalidRequest, `${param} must be given once.`, { param });
  }
  return value;
}

/** The Events page (the feed) and an event's page with its deliveries and "Resend". */
@DashboardController('events')
export class EventsPagesController {
  constructor(
    private readonly events: EventsQueryService,
    private readonly endpoints: WebhookEndpointsService,
  ) {}

  @Get()
  @AnyRole()
  async feed(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @Query('before') before: unknown,
    @Query('after') after: unknown,
    @Query('type') type: unknown,
  ): Promise<JSX.Element> {
    const chosen = optionalText(type, 'type');
    if (chosen !== undefined && !EVENT_TYPES.includes(chosen as EventType)) {
      throw new AppError(ErrorCode.InvalidRequest, 'Choose a type from the list.', {
        param: 'type',
      });
    }
    const page = await this.events.page(ownerOf(me), {
      before: optionalText(before, 'before'),
      after: optionalText(after, 'after'),
      limit: EVENTS_PER_PAGE,
      type: chosen as EventType | undefined,
    });
    return (
      <EventsPage
        ctx={ctx}
        view={{ ...page, type: chosen, livemode: me.session.mode === 'live' }}
      />
    );
  }

  @Get(':id')
  @AnyRole()
  async event(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @Param('id') id: string,
  ): Promise<JSX.Element> {
    const owner = ownerOf(me);
    const event = await this.events.get(id, owner);
    const canManage = me.user.role !== 'viewer';
    const endpoints = canManage
      ? (await this.endpoints.list(owner)).filter((endpoint) => endpoint.enabled)
      : [];
    return (
      <EventPage
        ctx={ctx}
        view={{
          event,
          deliveries: await this.endpoints.deliveriesOfEvent(event.id, owner),
          endpoints,
          canManage,
        }}
      />
    );
  }

  @Post(':id/resend')
  @Roles('owner', 'developer')
  async resend(
    @CurrentUser() me: SignedIn,
    @FormBody() form: Record<string, string>,
    @Param('id') id: string,
  ): Promise<FormAnswer> {
    const event = await this.events.get(id, ownerOf(me));
    return resendEvent(this.endpoints, me, form.endpointId ?? '', event.id, eventPath(event.id));
  }
}
