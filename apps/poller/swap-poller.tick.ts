import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { PollMetrics, SwapPollingService } from '#app/settlement';
import { SwapsRepository } from '#app/swaps';

export interface PollerTickOptions {
  /** `POLLER_TICK_MS`: how often the poller looks for due swaps. */
  tickMs: number;
}

export const POLLER_TICK_OPTIONS = Symbol('POLLER_TICK_OPTIONS');

/**
 * The poller's clock: a tick every `tickMs` that never overlaps itself (the next one is armed
 * when the previous one ends). It only delegates; on shutdown the batch in flight is finished
 * and whatever this poller still leases is released for the others.
 */
@Injectable()
export class SwapPollerTick implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(SwapPollerTick.name);
  /** Lease owner: unique per process and per instance (tests run several in one process). */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly timerName = `swap-poller:${this.owner}`;
  private inFlight: Promise<void> | null = null;
  private stopping = false;

  constructor(
    private readonly polling: SwapPollingService,
    private readonly swaps: SwapsRepository,
    private readonly metrics: PollMetrics,
    private readonly scheduler: SchedulerRegistry,
    @Inject(POLLER_TICK_OPTIONS) private readonly options: PollerTickOptions,
  ) {}

  onApplicationBootstrap(): void {
    this.arm(0);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    if (this.scheduler.doesExist('timeout', this.timerName)) {
      this.scheduler.deleteTimeout(this.timerName);
    }
    await this.inFlight;
    const released = await this.swaps.releaseLeases(this.owner);
    this.logger.log({ owner: this.owner, released }, 'poller stopped');
  }

  /** One tick: every failure inside is already decided; what reaches here is counted, logged. */
  async tick(): Promise<void> {
    try {
      await this.polling.pollDue(this.owner, () => !this.stopping);
    } catch (error: unknown) {
      this.metrics.tickFailures.inc();
      this.logger.error(
        { owner: this.owner, err: error instanceof Error ? error.message : String(error) },
        'poll tick failed; retried next tick',
      );
    }
  }

  private arm(delayMs: number): void {
    if (this.stopping) {
      return;
    }
    const timer = setTimeout(() => {
      this.scheduler.deleteTimeout(this.timerName);
      this.inFlight = this.tick().finally(() => {
        this.inFlight = null;
        this.arm(this.options.tickMs);
      });
    }, delayMs);
    // Registered so the schedule module owns it: listed, and cleared on shutdown.
    this.scheduler.addTimeout(this.timerName, timer);
  }
}
