import { register } from 'node:module';
import type { TracingConfig } from '#app/config';

/** Values a span may carry: never a secret, an address or a body (docs/decisions.md, "Tracing"). */
export type SpanAttributes = Record<string, string | number | boolean>;

/** What a traced piece of work may add to its span once it knows (counts, an outcome). */
export interface SpanNotes {
  add(attributes: SpanAttributes): void;
}

/** Runs work as spans; only the started SDK has one. */
export interface SpanRunner {
  rootSpan<T>(
    name: string,
    attributes: SpanAttributes,
    work: (notes: SpanNotes) => Promise<T>,
  ): Promise<T>;
  clientSpan<T>(
    name: string,
    attributes: SpanAttributes,
    work: (notes: SpanNotes) => Promise<T>,
  ): Promise<T>;
}

const NO_NOTES: SpanNotes = { add: () => undefined };

let runner: SpanRunner | null = null;

/**
 * Starts tracing when it is configured, else does nothing and loads nothing. It must run before
 * the process imports what it traces (express, pg, ioredis, http): an ES module's imports are
 * bound when it loads, so the entry point imports its app only once this resolved. The loader
 * hook is registered first and told which modules to wrap, so nothing else passes through it.
 */
export async function startTracing(config: TracingConfig | null): Promise<void> {
  if (config === null || runner !== null) {
    return;
  }
  const { createAddHookMessageChannel } = await import('import-in-the-middle');
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, registerOptions);
  const { startSdk } = await import('./tracing.sdk.js');
  runner = startSdk(config);
  await waitForAllMessagesAcknowledged();
}

/**
 * Runs `work` as the root span of a trace of its own (a poller round, a webhook send), with
 * what it touches (Postgres, Redis, the provider) as its children. Without tracing it only runs
 * `work`.
 */
export function traceRoot<T>(
  name: string,
  attributes: SpanAttributes,
  work: (notes: SpanNotes) => Promise<T>,
): Promise<T> {
  return runner === null ? work(NO_NOTES) : runner.rootSpan(name, attributes, work);
}

/**
 * Runs `work` as a client span of the current trace: a call out of the process that no
 * instrumentation sees (the provider calls go through `node:http`, whose outgoing requests are not
 * traced, so webhooks' targets never are). Without tracing it only runs `work`.
 */
export function traceClient<T>(
  name: string,
  attributes: SpanAttributes,
  work: (notes: SpanNotes) => Promise<T>,
): Promise<T> {
  return runner === null ? work(NO_NOTES) : runner.clientSpan(name, attributes, work);
}
