import type { IncomingMessage, ServerResponse } from 'node:http';
import { SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import type { TracingConfig } from '#app/config';
import { requestContext } from '#app/logging';
import { scrubAttributes } from './span-scrubber.js';
import type { SpanAttributes, SpanNotes, SpanRunner } from './tracing.js';

/** Probes and scrapes: many a minute, nothing to follow. */
const UNTRACED_PATHS = new Set(['/health', '/ready', '/metrics']);

/** Every span passes `scrubAttributes` on its way out. */
class ScrubbingExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], done: Parameters<SpanExporter['export']>[1]): void {
    for (const span of spans) {
      scrubAttributes(span.attributes, span.kind === SpanKind.SERVER);
    }
    this.inner.export(spans, done);
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/** The request id (also on every log line of the request) and the caller's organization. */
function requestAttributes(span: Span, _request: unknown, response: unknown): void {
  const context = requestContext.getStore();
  const header = (response as Partial<ServerResponse>).getHeader?.('x-request-id');
  const requestId = context?.requestId ?? (typeof header === 'string' ? header : undefined);
  if (requestId !== undefined) {
    span.setAttribute('app.request_id', requestId);
  }
  if (context?.orgId !== undefined) {
    span.setAttribute('app.organization_id', context.orgId);
  }
}

function instrumentations() {
  return [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (request: IncomingMessage) =>
        UNTRACED_PATHS.has((request.url ?? '/').split('?', 1)[0]),
      // The process's only node:http client calls are webhook sends, each traced as its own
      // `webhook.send` naming the endpoint by id: its URL may carry the partner's token.
      ignoreOutgoingRequestHook: () => true,
      applyCustomAttributesOnSpan: requestAttributes,
    }),
    new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
    // Queries and commands outside a request or a traced round (probes, background refreshes)
    // would each be a trace of one span.
    new PgInstrumentation({ requireParentSpan: true }),
    // The command only: keys and arguments hold idempotency keys, addresses and limits' subjects.
    new IORedisInstrumentation({
      requireParentSpan: true,
      dbStatementSerializer: (command) => command,
    }),
    new UndiciInstrumentation(),
  ];
}

/**
 * The OpenTelemetry SDK with the maintained instrumentations of what the service talks through,
 * traces only (metrics stay Prometheus', logs stay pino's), exported over OTLP. No propagation:
 * a partner's `traceparent` neither joins our traces nor sets our sampling, and no trace header
 * leaves for the provider or a partner's endpoint.
 */
export function startSdk(config: TracingConfig): SpanRunner {
  const exporter =
    config.protocol === 'http/json' ? new OtlpJsonExporter() : new OtlpProtobufExporter();
  const sdk = new NodeSDK({
    serviceName: config.serviceName,
    traceExporter: new ScrubbingExporter(exporter),
    metricReaders: [],
    logRecordProcessors: [],
    textMapPropagator: null,
    instrumentations: instrumentations(),
  });
  sdk.start();
  const tracer = trace.getTracer('swap-partners-api');
  const run = <T>(
    name: string,
    options: { root?: boolean; kind?: SpanKind; attributes: SpanAttributes },
    work: (notes: SpanNotes) => Promise<T>,
  ): Promise<T> =>
    tracer.startActiveSpan(name, options, async (span) => {
      try {
        return await work({ add: (more: SpanAttributes) => span.setAttributes(more) });
      } catch (error: unknown) {
        span.setStatus({
          code: SpanStatusCode.ERROR,
          message: error instanceof Error ? error.name : 'error',
        });
        throw error;
      } finally {
        span.end();
      }
    });
  return {
    rootSpan: (name, attributes, work) => run(name, { root: true, attributes }, work),
    clientSpan: (name, attributes, work) => run(name, { kind: SpanKind.CLIENT, attributes }, work),
  };
}
