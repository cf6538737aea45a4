import { Injectable, Logger } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { InjectConfig, ROUTING_CONFIG, type RoutingConfig } from '#app/config';
import type { ProviderName } from '#app/domain';
import { budgetExhaustionCounter, createAppRegistry } from '#app/metrics';
import type { UpstreamCallEvent } from '#app/provider';
import { ProviderStatsRepository, type CircuitState, type RoutingObserver } from '#app/routing';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const CIRCUIT_STATES: readonly CircuitState[] = ['closed', 'open', 'half_open'];

/**
 * What the api exposes on `/metrics` (docs/decisions.md, "Operating the service", "Operators'
 * view of routing"). Routing's series (wins, circuits, fidelity, budget refusals) are live mode
 * only: test mode's describe the sandbox.
 */
@Injectable()
export class ApiMetrics implements RoutingObserver {
  private readonly logger = new Logger(ApiMetrics.name);
  readonly registry = createAppRegistry();
  readonly requests = new Counter({
    name: 'api_http_requests_total',
    help: 'HTTP requests by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly latency = new Histogram({
    name: 'api_http_request_duration_seconds',
    help: 'HTTP request latency by method and route.',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: 'api_rate_limit_rejections_total',
    help: 'Requests refused with 429, by route.',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });
  readonly widgetPreflights = new Counter({
    name: 'api_widget_preflights_total',
    help:
      'CORS preflights of the widget API by outcome: allowed (an origin some key lists), ' +
      'unlisted (answered without CORS headers), rate_limited (429, past the per-IP limit).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly webhookPings = new Counter({
    name: 'api_webhook_pings_total',
    help:
      'Webhook endpoint pings by outcome: sent, or rate_limited (429: the endpoint, or three of ' +
      'its organization, already being pinged on some replica).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly upstreamCalls = new Counter({
    name: 'api_upstream_calls_total',
    help: 'Provider calls by provider, method and outcome.',
    labelNames: ['provider', 'method', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly upstreamLatency = new Histogram({
    name: 'api_upstream_call_duration_seconds',
    help: 'Provider call latency by provider and method.',
    labelNames: ['provider', 'method'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly budgetExhaustions = budgetExhaustionCounter(this.registry);
  readonly circuits = new Gauge({
    name: 'provider_circuit_state',
    help: "Each provider's live circuit as this replica last read it: 1 for its state, else 0.",
    labelNames: ['provider', 'state'] as const,
    registers: [this.registry],
  });
  readonly quoteWins = new Counter({
    name: 'provider_quote_wins_total',
    help: 'Live quotes each provider won (its quote was the best on offer).',
    labelNames: ['provider'] as const,
    registers: [this.registry],
  });
  readonly fidelity = new Gauge({
    name: 'provider_fidelity_ratio',
    help:
      "Each provider's live fidelity: the median, over its float swaps finished in the last " +
      '24 h, of the rate delivered over the rate quoted (absent while none finished).',
    labelNames: ['provider'] as const,
    registers: [this.registry],
    collect: () => this.readFidelity(),
  });

  private readonly providers: readonly ProviderName[];

  constructor(
    @InjectConfig(ROUTING_CONFIG) routing: RoutingConfig,
    private readonly history: ProviderStatsRepository,
  ) {
    this.providers = routing.providers;
  }

  /** Fed by the provider adapters after every call that reached the provider. */
  readonly onUpstreamCall = (event: UpstreamCallEvent): void => {
    this.upstreamCalls.inc({
      provider: event.provider,
      method: event.method,
      outcome: event.outcome,
    });
    this.upstreamLatency.observe(
      { provider: event.provider, method: event.method },
      event.latencyMs / 1000,
    );
  };

  quoteWon(provider: ProviderName, livemode: boolean): void {
    if (livemode) {
      this.quoteWins.inc({ provider });
    }
  }

  budgetExhausted(provider: ProviderName, livemode: boolean, caller: 'quote' | 'create'): void {
    if (livemode) {
      this.budgetExhaustions.inc({ provider, caller });
    }
  }

  circuit(provider: ProviderName, livemode: boolean, state: CircuitState): void {
    if (!livemode) {
      return;
    }
    for (const each of CIRCUIT_STATES) {
      this.circuits.set({ provider, state: each }, each === state ? 1 : 0);
    }
  }

  /**
   * Read at every scrape (one indexed query per provider), so an alert sees it without anyone
   * opening `/admin/providers`. A provider whose fidelity cannot be read keeps its last value.
   */
  private async readFidelity(): Promise<void> {
    await Promise.all(
      this.providers.map(async (provider) => {
        try {
          const { value } = await this.history.fidelity(provider, true);
          if (value === null) {
            this.fidelity.remove({ provider });
          } else {
            this.fidelity.set({ provider }, Number(value));
          }
        } catch (error: unknown) {
          this.logger.warn(
            { provider, err: error instanceof Error ? error.message : String(error) },
            'provider fidelity unreadable; the metric keeps its last value',
          );
        }
      }),
    );
  }
}
