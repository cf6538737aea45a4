import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';

/** Endpoints shown one by one: the longest waiting, so a series per endpoint stays bounded. */
export const ENDPOINTS_SHOWN = 50;

/**
 * What the poller's webhook loop exposes on `/metrics`. Its own registry, without the process
 * metrics: the poller merges it into the registry its probe server shows.
 */
@Injectable()
export class WebhookMetrics {
  readonly registry = new Registry();
  readonly deliveries: Counter<'outcome'>;
  readonly pending: Gauge;
  readonly oldestPendingAge: Gauge;
  readonly endpointOldestPendingAge: Gauge<'endpoint'>;
  readonly endpointDisables: Counter;
  readonly leaseLost: Counter;

  constructor() {
    const registers = [this.registry];
    this.deliveries = new Counter({
      name: 'webhook_deliveries_total',
      help: 'Delivery attempts by outcome: delivered, retry (failed, tried again later), failed (for good).',
      labelNames: ['outcome'] as const,
      registers,
    });
    this.pending = new Gauge({
      name: 'webhook_deliveries_pending',
      help: 'Deliveries still owed to enabled endpoints.',
      registers,
    });
    this.oldestPendingAge = new Gauge({
      name: 'webhook_oldest_pending_age_seconds',
      help: 'How long the oldest delivery still owed to an enabled endpoint has waited.',
      registers,
    });
    this.endpointOldestPendingAge = new Gauge({
      name: 'webhook_endpoint_oldest_pending_age_seconds',
      help: `How long the oldest delivery still owed to each enabled endpoint has waited, for the ${ENDPOINTS_SHOWN} endpoints that waited longest.`,
      labelNames: ['endpoint'] as const,
      registers,
    });
    this.endpointDisables = new Counter({
      name: 'webhook_endpoint_disables_total',
      help: 'Endpoints disabled after all their deliveries failed for 3 days.',
      registers,
    });
    this.leaseLost = new Counter({
      name: 'webhook_lease_lost_total',
      help: 'Attempts not written back because another poller had taken the delivery over.',
      registers,
    });
  }
}
