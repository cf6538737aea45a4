import type { Logger } from '@nestjs/common';
import { MemoryStore, type KeyValueStore } from '#app/redis';

const WARNING_INTERVAL_MS = 60_000;

/**
 * The shared store while it answers, this process's own memory while it fails: a limit keeps
 * holding through a Redis outage, per process (docs/decisions.md, "Rate limits on
 * @nestjs/throttler"), with at most one warning a minute. Every limit over the shared store falls
 * back through one of these, so none answers 500 for want of Redis.
 */
export class PerProcessFallback {
  private readonly local = new MemoryStore();
  private lastWarning = 0;

  constructor(
    private readonly shared: KeyValueStore,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly warning: string,
  ) {}

  /** Runs `operation` on the shared store, or on this process's own when the shared one fails. */
  async run<T>(
    operation: (store: KeyValueStore) => Promise<T>,
  ): Promise<{ value: T; store: KeyValueStore }> {
    try {
      return { value: await operation(this.shared), store: this.shared };
    } catch (error: unknown) {
      const now = Date.now();
      if (now - this.lastWarning > WARNING_INTERVAL_MS) {
        this.lastWarning = now;
        this.logger.warn({ err: (error as Error).message }, this.warning);
      }
      return { value: await operation(this.local), store: this.local };
    }
  }
}
