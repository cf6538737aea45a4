import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectConfig, WEBHOOK_CONFIG } from '#app/config';
import type { OwnerScope } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import {
  EVENT_ID,
  EVENT_TYPES,
  EventsRepository,
  newEventId,
  PING_EVENT_TYPE,
  type PingEvent,
} from '#app/events';
import { AuditLogRepository, CredentialCipher } from '#app/partners';
import type { WebhookEndpointEntity } from '#app/persistence';
import { SharedInFlightCap } from '#app/rate-limit';
import { KEY_VALUE_STORE, type KeyValueStore } from '#app/redis';
import {
  checkWebhookTarget,
  generateWebhookSecret,
  sendWebhook,
  type ResolveAll,
  type WebhookTargetPolicy,
} from './delivery/index.js';
import {
  WebhookDeliveryHistory,
  type AttemptRow,
  type EventDelivery,
  type Resend,
} from './webhook-delivery-history.repository.js';
import {
  toHealthView,
  toWebhookEndpointView,
  type WebhookAttemptView,
  type WebhookEndpointHealthView,
  type WebhookEndpointView,
} from './webhook-endpoint.view.js';
import { newWebhookEndpointId, WEBHOOK_ENDPOINT_ID } from './webhook-endpoint-id.js';
import {
  MAX_ENDPOINTS_PER_MODE,
  WebhookEndpointsRepository,
  type EndpointPatch,
} from './webhook-endpoints.repository.js';
import { ROTATION_OVERLAP_MS, signFor } from './webhook-signing.js';
import { WEBHOOK_ENDPOINT_RULES } from './webhook-endpoint.rules.js';

export interface CreateEndpointInput {
  url: string;
  events?: string[];
  description?: string;
}

/** How endpoint hosts are resolved: DNS, replaced in tests. */
export const WEBHOOK_RESOLVER = Symbol('WEBHOOK_RESOLVER');

/**
 * A ping holds an api request open while it waits for the receiver, so it gets less time than a
 * delivery, and at most one ping per endpoint and three per organization are in flight across
 * every replica (docs/decisions.md, "Pings are capped").
 */
export const PING_TIMEOUT_MS = 5_000;
export const PINGS_IN_FLIGHT = { perEndpoint: 1, perOrganization: 3 } as const;
/** A ping's slots outlive its longest wait, and free themselves if its replica dies. */
const PING_LEASE_MS = 2 * PING_TIMEOUT_MS;

/** How a ping went: sent (whatever the endpoint answered), or refused by the cap (429). */
export type PingOutcome = 'sent' | 'rate_limited';

/** Who hears how each ping went: the api's metrics. */
@Injectable()
export class PingListeners {
  private readonly listeners: ((outcome: PingOutcome) => void)[] = [];

  add(listener: (outcome: PingOutcome) => void): void {
    this.listeners.push(listener);
  }

  notify(outcome: PingOutcome): void {
    for (const listener of this.listeners) {
      listener(outcome);
    }
  }
}

/** An endpoint's description within its limit (`WEBHOOK_ENDPOINT_RULES`); null or absent is none. */
function assertDescription(description: string | null | undefined): void {
  const max = WEBHOOK_ENDPOINT_RULES.descriptionMaxLength;
  if (description && [...description].length > max) {
    throw new AppError(ErrorCode.InvalidRequest, `description must be at most ${max} characters.`, {
      param: 'description',
    });
  }
}

/** The event types an endpoint is sent: a non-empty list of known types; absent is unchanged. */
function assertEvents(events: readonly string[] | undefined): void {
  const known: readonly string[] = EVENT_TYPES;
  if (events !== undefined && (events.length === 0 || events.some((t) => !known.includes(t)))) {
    throw new AppError(
      ErrorCode.InvalidRequest,
      `events must be a non-empty list of event types: ${EVENT_TYPES.join(', ')}.`,
      { param: 'events' },
    );
  }
}

/**
 * Partners' webhook endpoints (docs/decisions.md, "Webhook endpoint limits and pings"): create,
 * read, change, delete, rotate the secret, list attempts and ping. Every URL is checked (and
 * resolved) against the target policy before it is stored; secrets are sealed like credential
 * secrets and shown only on create and rotate. A change made on behalf of a person (`actor`, as
 * the dashboard passes) is written to the organization's audit log, never with a secret.
 */
@Injectable()
export class WebhookEndpointsService {
  private readonly logger = new Logger(WebhookEndpointsService.name);
  /** Pings in flight across every replica, by endpoint and by organization. */
  private readonly pinging: SharedInFlightCap;

  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveryHistory,
    private readonly cipher: CredentialCipher,
    private readonly events: EventsRepository,
    @InjectConfig(WEBHOOK_CONFIG) private readonly policy: WebhookTargetPolicy,
    @Inject(WEBHOOK_RESOLVER) private readonly resolveAll: ResolveAll,
    @Inject(KEY_VALUE_STORE) store: KeyValueStore,
    private readonly pingListeners: PingListeners,
    private readonly audit: AuditLogRepository,
  ) {
    this.pinging = new SharedInFlightCap(store, PING_LEASE_MS);
  }

  async create(
    owner: OwnerScope,
    input: CreateEndpointInput,
    actor?: string,
  ): Promise<WebhookEndpointView> {
    assertDescription(input.description);
    assertEvents(input.events);
    await this.assertTarget(input.url, owner.livemode);
    const secret = generateWebhookSecret();
    const now = new Date();
    const id = newWebhookEndpointId();
    const endpoint = {
      id,
      organizationId: owner.organizationId,
      livemode: owner.livemode,
      url: input.url,
      events: input.events ?? [...EVENT_TYPES],
      description: input.description ?? null,
      enabled: true,
      secretCiphertext: this.cipher.encrypt(secret, { purpose: 'webhook', rowId: id }),
      previousSecretCiphertext: null,
      previousSecretExpiresAt: null,
      failingSince: null,
      disabledAt: null,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.endpoints.insertWithinLimit(endpoint))) {
      throw new AppError(
        ErrorCode.InvalidRequest,
        `At most ${MAX_ENDPOINTS_PER_MODE} webhook endpoints per organization and mode; delete one first.`,
      );
    }
    this.logger.log(
      { orgId: owner.organizationId, endpointId: endpoint.id, livemode: owner.livemode },
      'webhook endpoint created',
    );
    await this.record(actor, 'webhook_endpoint.create', id, owner, { url: input.url });
    return toWebhookEndpointView(endpoint, secret);
  }

  async list(owner: OwnerScope): Promise<WebhookEndpointView[]> {
    return (await this.endpoints.listForOwner(owner)).map((e) => toWebhookEndpointView(e));
  }

  async get(id: string, owner: OwnerScope): Promise<WebhookEndpointView> {
    return toWebhookEndpointView(await this.own(id, owner));
  }

  async update(
    id: string,
    owner: OwnerScope,
    patch: EndpointPatch,
    actor?: string,
  ): Promise<WebhookEndpointView> {
    const updated = await this.patch(id, owner, patch);
    const { url, events, enabled } = patch;
    await this.record(actor, 'webhook_endpoint.update', id, owner, { url, events, enabled });
    return updated;
  }

  /** Sends to the endpoint again, or nothing more (its pending deliveries wait meanwhile). */
  async setEnabled(
    id: string,
    owner: OwnerScope,
    enabled: boolean,
    actor?: string,
  ): Promise<WebhookEndpointView> {
    const updated = await this.patch(id, owner, { enabled });
    const action = enabled ? 'webhook_endpoint.enable' : 'webhook_endpoint.disable';
    await this.record(actor, action, id, owner);
    return updated;
  }

  async delete(id: string, owner: OwnerScope, actor?: string): Promise<void> {
    if (!WEBHOOK_ENDPOINT_ID.test(id) || !(await this.endpoints.delete(id, owner))) {
      throw notFound();
    }
    await this.record(actor, 'webhook_endpoint.delete', id, owner);
  }

  /** A new secret; the current one keeps signing for 24 h, so receivers can switch in time. */
  async rotateSecret(id: string, owner: OwnerScope, actor?: string): Promise<WebhookEndpointView> {
    await this.own(id, owner);
    const secret = generateWebhookSecret();
    const rotated = await this.endpoints.rotateSecret(
      id,
      owner,
      this.cipher.encrypt(secret, { purpose: 'webhook', rowId: id }),
      new Date(Date.now() + ROTATION_OVERLAP_MS),
    );
    if (!rotated) {
      throw notFound();
    }
    this.logger.log({ orgId: owner.organizationId, endpointId: id }, 'webhook secret rotated');
    await this.record(actor, 'webhook_endpoint.rotate_secret', id, owner);
    return toWebhookEndpointView(rotated, secret);
  }

  async attempts(id: string, owner: OwnerScope, limit: number): Promise<WebhookAttemptView[]> {
    await this.own(id, owner);
    return (await this.deliveries.latestAttempts(id, limit)).map((a) => ({
      ...a,
      createdAt: a.createdAt.toISOString(),
    }));
  }

  /**
   * A page of the endpoint's attempts, newest first; `before` is the id of the last attempt of
   * the page before (an id that is not a positive integer starts from the newest).
   */
  async attemptPage(
    id: string,
    owner: OwnerScope,
    query: { before?: string; limit: number },
  ): Promise<{ attempts: AttemptRow[]; hasMore: boolean }> {
    await this.own(id, owner);
    const before =
      query.before !== undefined && ATTEMPT_ID.test(query.before) ? query.before : null;
    return this.deliveries.attemptPage(id, before, query.limit);
  }

  /**
   * Sends one of the owner's events to the endpoint again, as a new delivery the poller makes
   * (retried like any other) on behalf of `actor`; while a delivery of it is still pending, that
   * one is made due now instead. A disabled endpoint is sent nothing.
   */
  async resend(id: string, owner: OwnerScope, eventId: string, actor: string): Promise<Resend> {
    const endpoint = await this.own(id, owner);
    const event = EVENT_ID.test(eventId) ? await this.events.findForOwner(eventId, owner) : null;
    if (!event) {
      throw new AppError(ErrorCode.NotFound, 'Event not found.');
    }
    if (!endpoint.enabled) {
      throw new AppError(
        ErrorCode.Conflict,
        'This endpoint is disabled; enable it before resending events to it.',
      );
    }
    const resend = await this.deliveries.resend(id, eventId, actor);
    this.logger.log(
      { orgId: owner.organizationId, endpointId: id, eventId, actor, created: resend.created },
      'webhook resend queued',
    );
    return resend;
  }

  /** The deliveries of the owner's event, to the owner's endpoints, newest first. */
  async deliveriesOfEvent(eventId: string, owner: OwnerScope): Promise<EventDelivery[]> {
    return EVENT_ID.test(eventId) ? this.deliveries.forEvent(eventId, owner) : [];
  }

  /**
   * Sends an `endpoint.ping` event at once, signed like every webhook, and answers what the
   * endpoint said within 5 s. The ping is neither stored as an event nor retried. A ping to an
   * endpoint already being pinged, or past the organization's pings in flight, answers 429.
   */
  async ping(id: string, owner: OwnerScope): Promise<WebhookAttemptView> {
    const endpoint = await this.own(id, owner);
    const lease = await this.pinging.acquire([
      { key: `ping:endpoint:${endpoint.id}`, max: PINGS_IN_FLIGHT.perEndpoint },
      { key: `ping:organization:${owner.organizationId}`, max: PINGS_IN_FLIGHT.perOrganization },
    ]);
    if (lease === null) {
      this.pingListeners.notify('rate_limited');
      throw new AppError(
        ErrorCode.RateLimited,
        'A ping to this endpoint, or too many of this organization, is already in flight; retry once it has answered.',
        { retryAfterMs: PING_TIMEOUT_MS },
      );
    }
    this.pingListeners.notify('sent');
    try {
      return await this.sendPing(endpoint);
    } finally {
      await lease.release();
    }
  }

  private async sendPing(endpoint: WebhookEndpointEntity): Promise<WebhookAttemptView> {
    const now = new Date();
    const event: PingEvent = {
      id: newEventId(),
      type: PING_EVENT_TYPE,
      createdAt: now.toISOString(),
      livemode: endpoint.livemode,
      data: { webhookEndpointId: endpoint.id },
    };
    const body = JSON.stringify(event);
    const result = await sendWebhook(
      {
        url: endpoint.url,
        livemode: endpoint.livemode,
        body,
        headers: signFor(this.cipher, endpoint.id, endpoint, event.id, now, body),
      },
      this.policy,
      this.resolveAll,
      PING_TIMEOUT_MS,
    );
    return {
      eventId: event.id,
      attempt: 1,
      httpStatus: result.httpStatus,
      error: result.error,
      durationMs: result.durationMs,
      createdAt: now.toISOString(),
    };
  }

  /** The operator's view: every endpoint of the organization, both modes, with its health. */
  async healthOfOrganization(organizationId: string): Promise<WebhookEndpointHealthView[]> {
    return (await this.endpoints.healthOfOrganization(organizationId)).map(toHealthView);
  }

  private async patch(
    id: string,
    owner: OwnerScope,
    patch: EndpointPatch,
  ): Promise<WebhookEndpointView> {
    assertDescription(patch.description);
    assertEvents(patch.events);
    await this.own(id, owner);
    if (patch.url !== undefined) {
      await this.assertTarget(patch.url, owner.livemode);
    }
    const updated = await this.endpoints.update(id, owner, patch);
    if (!updated) {
      throw notFound();
    }
    return toWebhookEndpointView(updated);
  }

  /** The audit entry of a change made on behalf of `actor` (none without one); never a secret. */
  private async record(
    actor: string | undefined,
    action: string,
    id: string,
    owner: OwnerScope,
    details: Record<string, unknown> = {},
  ): Promise<void> {
    if (actor === undefined) {
      return;
    }
    await this.audit.record({
      actor,
      action,
      targetType: 'webhook_endpoint',
      targetId: id,
      organizationId: owner.organizationId,
      details: { mode: owner.livemode ? 'live' : 'test', ...details },
    });
  }

  private async own(id: string, owner: OwnerScope) {
    const endpoint = WEBHOOK_ENDPOINT_ID.test(id)
      ? await this.endpoints.findForOwner(id, owner)
      : null;
    if (!endpoint) {
      throw notFound();
    }
    return endpoint;
  }

  private async assertTarget(url: string, livemode: boolean): Promise<void> {
    const verdict = await checkWebhookTarget(url, livemode, this.policy, this.resolveAll);
    if (!verdict.allowed) {
      throw new AppError(ErrorCode.InvalidRequest, `url ${verdict.reason}.`, { param: 'url' });
    }
  }
}

/** A `webhook_attempts` id: a positive bigint. */
const ATTEMPT_ID = /^[1-9][0-9]{0,17}$/;

function notFound(): AppError {
  return new AppError(ErrorCode.NotFound, 'Webhook endpoint not found.');
}
