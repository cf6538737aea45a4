import { EnvReader } from './env-reader.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The OTLP transports the service exports traces over (the SDK's own default first). */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/**
 * OpenTelemetry tracing (docs/decisions.md, "Tracing"). The exporter reads the rest of the
 * standard `OTEL_*` variables itself (endpoint, headers, sampler, batch delays).
 */
export interface TracingConfig {
  /** `OTEL_SERVICE_NAME`, else the process's own name. */
  serviceName: string;
  protocol: OtlpProtocol;
}

/**
 * Tracing is off (null) unless an OTLP endpoint is set, the standard way: no SDK is loaded then.
 * `OTEL_SDK_DISABLED=true` turns it off with the endpoint set.
 */
export function loadTracingConfig(env: Env, defaultServiceName: string): TracingConfig | null {
  const reader = new EnvReader(env);
  if (reader.optional('OTEL_SDK_DISABLED')?.toLowerCase() === 'true') {
    return null;
  }
  const endpoint =
    reader.optionalUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', ['http', 'https']) ??
    reader.optionalUrl('OTEL_EXPORTER_OTLP_ENDPOINT', ['http', 'https']);
  if (endpoint === undefined) {
    return null;
  }
  const protocol = reader.oneOf('OTEL_EXPORTER_OTLP_PROTOCOL', OTLP_PROTOCOLS, OTLP_PROTOCOLS[0]);
  return {
    serviceName: reader.optional('OTEL_SERVICE_NAME') ?? defaultServiceName,
    protocol: reader.oneOf('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', OTLP_PROTOCOLS, protocol),
  };
}
