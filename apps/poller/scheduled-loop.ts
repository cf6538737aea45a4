import { Logger } from '@nestjs/common';
import type { SchedulerRegistry } from '@nestjs/schedule';

/**
 * A round that runs again `everyMs` after it ends, so it never runs beside itself; its timer is
 * registered with the schedule module under `name` (listed, and cleared on shutdown). `stop`
 * arms nothing more and waits for the round running. A round handles its own failures (logs and
 * counts them); one that rejects all the same is logged here and followed by the next.
 */
export class ScheduledLoop {
  private readonly logger = new Logger(ScheduledLoop.name);
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly scheduler: SchedulerRegistry,
    private readonly name: string,
    private readonly everyMs: number,
    private readonly round: () => Promise<void>,
  ) {}

  /** The first round now; the next ones `everyMs` after each ends. */
  start(): void {
    this.arm(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.scheduler.doesExist('timeout', this.name)) {
      this.scheduler.deleteTimeout(this.name);
    }
    await this.running;
  }

  private arm(delayMs: number): void {
    if (this.stopped) {
      return;
    }
    const timer = setTimeout(() => {
      this.scheduler.deleteTimeout(this.name);
      this.running = this.round()
        .catch((error: unknown) => {
          this.logger.error(
            { loop: this.name, err: error instanceof Error ? error.message : String(error) },
            'round failed; the next one runs as scheduled',
          );
        })
        .then(() => this.arm(this.everyMs));
    }, delayMs);
    this.scheduler.addTimeout(this.name, timer);
  }
}
