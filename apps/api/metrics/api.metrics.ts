import { Injectable } from '@nestjs/common';
import { Counter, Histogram, MetricsRegistry } from '#app/metrics';
import type { UpstreamCallEvent } from '#app/provider';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What the api exposes on `/metrics` (DECISIONS §5, observability). */
@Injectable()
export class ApiMetrics {
  readonly registry = new MetricsRegistry();
  readonly requests = this.registry.register(
    new Counter('api_http_requests_total', 'HTTP requests by method, route and status.'),
  );
  readonly latency = this.registry.register(
    new Histogram(
      'api_http_request_duration_seconds',
      'HTTP request latency by route.',
      LATENCY_BUCKETS,
    ),
  );
  readonly rateLimited = this.registry.register(
    new Counter('api_rate_limit_rejections_total', 'Requests refused with 429, by code.'),
  );
  readonly upstreamCalls = this.registry.register(
    new Counter('api_upstream_calls_total', 'Provider calls by method and outcome.'),
  );
  readonly upstreamLatency = this.registry.register(
    new Histogram(
      'api_upstream_call_duration_seconds',
      'Provider call latency by method.',
      LATENCY_BUCKETS,
    ),
  );

  /** Fed by the provider adapter after every call that reached the provider. */
  readonly onUpstreamCall = (event: UpstreamCallEvent): void => {
    this.upstreamCalls.inc({ method: event.method, outcome: event.outcome });
    this.upstreamLatency.observe(event.latencyMs / 1000, { method: event.method });
  };
}
