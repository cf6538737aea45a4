import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One exported span, flattened from OTLP/JSON. */
export interface ReceivedSpan {
  service: string;
  scope: string;
  name: string;
  kind: 'internal' | 'server' | 'client' | 'producer' | 'consumer' | 'unspecified';
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}

interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}

interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      scope?: { name?: string };
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind?: number;
        attributes?: OtlpAttribute[];
      }[];
    }[];
  }[];
}

const KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'] as const;

function valueOf(value: OtlpValue): unknown {
  if (value.arrayValue) {
    return (value.arrayValue.values ?? []).map(valueOf);
  }
  if (value.intValue !== undefined) {
    return Number(value.intValue);
  }
  return value.stringValue ?? value.doubleValue ?? value.boolValue;
}

function attributesOf(list: OtlpAttribute[] = []): Record<string, unknown> {
  return Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));
}

/**
 * An OpenTelemetry collector's OTLP/HTTP receiver for JSON (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`)
 * on 127.0.0.1: keeps every span exported to `/v1/traces`.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  url = '';
  private server: Server;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/v1/traces') {
          res.writeHead(404).end();
          return;
        }
        this.collect(JSON.parse(Buffer.concat(chunks).toString()) as OtlpExport);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private collect(body: OtlpExport): void {
    for (const resourceSpans of body.resourceSpans ?? []) {
      const resource = attributesOf(resourceSpans.resource?.attributes);
      for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
        for (const span of scopeSpans.spans ?? []) {
          this.spans.push({
            service: String(resource['service.name']),
            scope: scopeSpans.scope?.name ?? '',
            name: span.name,
            kind: KINDS[span.kind ?? 0],
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ? span.parentSpanId : null,
            attributes: attributesOf(span.attributes),
          });
        }
      }
    }
  }
}
