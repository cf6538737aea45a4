import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  InjectConfig,
  WEBHOOK_CONFIG,
  WEBHOOK_DELIVERY_CONFIG,
  type WebhookConfig,
  type WebhookDeliveryConfig,
} from '#app/config';
import { AuditLogRepository, CredentialCipher, OnboardingService } from '#app/partners';
import { traceRoot, type SpanNotes } from '#app/tracing';
import {
  nextAttemptAt,
  sendWebhook,
  WEBHOOK_RETRY_WINDOW_MS,
  type ResolveAll,
} from './delivery/index.js';
import {
  WebhookDeliveryClaims,
  type AttemptOutcome,
  type ClaimedDelivery,
  type ClaimFairness,
} from './webhook-delivery-claims.repository.js';
import { WebhookDeliveryMetrics } from './webhook-delivery-metrics.repository.js';
import {
  WebhookEndpointsRepository,
  type EndpointCircuit,
} from './webhook-endpoints.repository.js';
import { WEBHOOK_RESOLVER } from './webhook-endpoints.service.js';
import { ENDPOINTS_SHOWN, WebhookMetrics } from './webhook.metrics.js';
import { signFor } from './webhook-signing.js';

/**
 * An endpoint nothing could be delivered to for this long is disabled (docs/decisions.md, "Webhook
 * delivery in the poller").
 */
export const DISABLE_AFTER_MS = WEBHOOK_RETRY_WINDOW_MS;

/**
 * Fair shares of the sending slots (see docs/decisions.md, "Fair webhook delivery"): at most 5
 * sends in flight per endpoint across every poller, and after 3 timeouts in a row an endpoint's
 * deliveries wait 30 s without holding a slot, then go one at a time until one succeeds.
 */
export const ENDPOINT_FAIRNESS: ClaimFairness = { perEndpoint: 5, probeAfterTimeouts: 3 };
export const ENDPOINT_CIRCUIT: EndpointCircuit = {
  timeouts: ENDPOINT_FAIRNESS.probeAfterTimeouts,
  openMs: 30_000,
};

/**
 * The poller's webhook work: lease due deliveries, send each signed, write the attempt back and
 * decide: delivered, retried later on the schedule, or failed once the 3-day window is over. An
 * endpoint that has had nothing delivered for 3 days is disabled, with an audit entry.
 */
@Injectable()
export class WebhookDispatcher {
  private readonly logger = new Logger(WebhookDispatcher.name);

  constructor(
    private readonly deliveries: WebhookDeliveryClaims,
    private readonly deliveryMetrics: WebhookDeliveryMetrics,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly cipher: CredentialCipher,
    private readonly audit: AuditLogRepository,
    private readonly onboarding: OnboardingService,
    private readonly metrics: WebhookMetrics,
    @InjectConfig(WEBHOOK_CONFIG) private readonly webhooks: WebhookConfig,
    @InjectConfig(WEBHOOK_DELIVERY_CONFIG) private readonly options: WebhookDeliveryConfig,
    @Inject(WEBHOOK_RESOLVER) private readonly resolveAll: ResolveAll,
  ) {}

  /** How many deliveries one poller sends at once. */
  get concurrency(): number {
    return this.options.batchSize;
  }

  /** Leases up to `limit` due deliveries under `owner`, as of `now`. */
  claim(owner: string, now: Date, limit: number): Promise<ClaimedDelivery[]> {
    return this.deliveries.claimDue(owner, now, limit, this.options.leaseMs, ENDPOINT_FAIRNESS);
  }

  /**
   * Leases and sends one batch of due deliveries under `owner`, as of `now` (the clock is the
   * caller's, so tests can move it). Answers how many were claimed.
   */
  async deliverDue(owner: string, now: Date = new Date()): Promise<number> {
    const claimed = await this.claim(owner, now, this.options.batchSize);
    await Promise.all(claimed.map((delivery) => this.deliver(owner, delivery, now)));
    return claimed.length;
  }

  /** Refreshes the backlog gauges. */
  async measureBacklog(now: Date = new Date()): Promise<void> {
    const backlog = await this.deliveryMetrics.backlog(now);
    this.metrics.pending.set(backlog.pending);
    this.metrics.oldestPendingAge.set(backlog.oldestAgeSeconds);
    // An endpoint that is owed nothing any more drops out, rather than staying at its last age.
    this.metrics.endpointOldestPendingAge.reset();
    for (const endpoint of backlog.endpoints.slice(0, ENDPOINTS_SHOWN)) {
      this.metrics.endpointOldestPendingAge.set(
        { endpoint: endpoint.endpointId },
        endpoint.oldestAgeSeconds,
      );
    }
  }

  releaseLeases(owner: string): Promise<number> {
    return this.deliveries.releaseLeases(owner);
  }

  /**
   * Sends one leased delivery and writes back what came of it: a trace of its own when tracing is
   * on, naming the endpoint by id (never its URL, which may carry the partner's token).
   */
  deliver(owner: string, delivery: ClaimedDelivery, now: Date): Promise<void> {
    return traceRoot(
      'webhook.send',
      {
        'app.organization_id': delivery.organizationId,
        'webhook.endpoint_id': delivery.endpointId,
        'webhook.event_id': delivery.event.id,
        'webhook.event_type': delivery.event.type,
        'webhook.attempt': delivery.attempts + 1,
      },
      (notes) => this.send(owner, delivery, now, notes),
    );
  }

  private async send(
    owner: string,
    delivery: ClaimedDelivery,
    now: Date,
    notes: SpanNotes,
  ): Promise<void> {
    const body = JSON.stringify(delivery.event);
    const result = await sendWebhook(
      {
        url: delivery.url,
        livemode: delivery.livemode,
        body,
        headers: signFor(this.cipher, delivery.endpointId, delivery, delivery.event.id, now, body),
      },
      this.webhooks,
      this.resolveAll,
    );
    // A refused target fails at once: no retry can pass the guard, and the endpoint is disabled.
    const retryAt =
      result.delivered || result.refused
        ? null
        : nextAttemptAt(
            { baseMs: this.webhooks.retryBaseMs, random: Math.random },
            delivery.attempts + 1,
            delivery.createdAt,
            now,
          );
    const outcome: AttemptOutcome = {
      status: result.delivered ? 'delivered' : retryAt ? 'pending' : 'failed',
      nextAttemptAt: retryAt,
      httpStatus: result.httpStatus,
      error: result.error,
      durationMs: result.durationMs,
    };
    notes.add({
      'webhook.outcome': outcome.status === 'pending' ? 'retry' : outcome.status,
      ...(result.httpStatus === null ? {} : { 'http.response.status_code': result.httpStatus }),
    });
    if (!(await this.deliveries.recordAttempt(owner, delivery, now, outcome))) {
      this.metrics.leaseLost.inc();
      return;
    }
    this.metrics.deliveries.inc({
      outcome: outcome.status === 'pending' ? 'retry' : outcome.status,
    });
    this.logger.log(
      {
        endpointId: delivery.endpointId,
        eventId: delivery.event.id,
        attempt: delivery.attempts + 1,
        httpStatus: result.httpStatus,
        error: result.error,
        durationMs: result.durationMs,
        outcome: outcome.status,
      },
      'webhook attempt',
    );
    if (result.delivered) {
      await this.onboarding.webhookDelivered(delivery.organizationId);
      if (!delivery.endpointHealthy) {
        await this.endpoints.markHealthy(delivery.endpointId, now);
      }
    } else if (result.refused) {
      if (await this.endpoints.disableRefused(delivery.endpointId, now)) {
        await this.disabled(delivery, 'the target guard refused the URL', result);
      }
    } else if (
      await this.endpoints.markFailing(
        delivery.endpointId,
        now,
        DISABLE_AFTER_MS,
        result.timedOut,
        ENDPOINT_CIRCUIT,
      )
    ) {
      await this.disabled(delivery, 'no delivery succeeded for 3 days', result);
    }
  }

  private async disabled(
    delivery: ClaimedDelivery,
    reason: string,
    result: Pick<AttemptOutcome, 'error' | 'httpStatus'>,
  ): Promise<void> {
    await this.audit.record({
      actor: 'poller',
      action: 'webhook_endpoint.disable',
      targetType: 'webhook_endpoint',
      targetId: delivery.endpointId,
      details: { reason, lastError: result.error, lastHttpStatus: result.httpStatus },
    });
    this.metrics.endpointDisables.inc();
    this.logger.warn(
      { endpointId: delivery.endpointId, organizationId: delivery.organizationId, reason },
      'webhook endpoint disabled',
    );
  }
}
