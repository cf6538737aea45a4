import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import { createAppRegistry } from '#app/metrics';
import type { UpstreamCallEvent } from '#app/provider';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What the api exposes on `/metrics` (docs/decisions.md, "Operating the service"). */
@Injectable()
export class ApiMetrics {
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
  readonly upstreamCalls = new Counter({
    name: 'api_upstream_calls_total',
    help: 'Provider calls by method and outcome.',
    labelNames: ['method', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly upstreamLatency = new Histogram({
    name: 'api_upstream_call_duration_seconds',
    help: 'Provider call latency by method.',
    labelNames: ['method'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  /** Fed by the provider adapter after every call that reached the provider. */
  readonly onUpstreamCall = (event: UpstreamCallEvent): void => {
    this.upstreamCalls.inc({ method: event.method, outcome: event.outcome });
    this.upstreamLatency.observe({ method: event.method }, event.latencyMs / 1000);
  };
}
