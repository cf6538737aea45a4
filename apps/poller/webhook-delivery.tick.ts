import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { PollMetrics } from '#app/settlement';
import { WebhookDispatcher } from '#app/webhooks';
import { SwapPollerTick } from './swap-poller.tick.js';

export interface WebhookTickOptions {
  /** `WEBHOOK_TICK_MS`: how often an idle poller looks for due deliveries. */
  tickMs: number;
}

export const WEBHOOK_TICK_OPTIONS = Symbol('WEBHOOK_TICK_OPTIONS');

/** The backlog gauges are refreshed this often, not every tick. */
const BACKLOG_EVERY_MS = 5_000;

/**
 * The webhook delivery loop, separate from swap polling so a slow provider never delays a
 * webhook nor the reverse. A short tick (250 ms by default) keeps a new event's delivery within
 * the 2 s the contract allows; a full batch is followed at once by the next. It never overlaps
 * itself; on shutdown the batch in flight finishes and this poller's leases are released.
 */
@Injectable()
export class WebhookDeliveryTick implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookDeliveryTick.name);
  private readonly timerName: string;
  private inFlight: Promise<void> = Promise.resolve();
  private stopping = false;
  private backlogMeasuredAt = 0;

  constructor(
    private readonly dispatcher: WebhookDispatcher,
    private readonly metrics: PollMetrics,
    private readonly scheduler: SchedulerRegistry,
    private readonly poller: SwapPollerTick,
    @Inject(WEBHOOK_TICK_OPTIONS) private readonly options: WebhookTickOptions,
  ) {
    this.timerName = `webhook-delivery:${poller.owner}`;
  }

  onApplicationBootstrap(): void {
    this.arm(0);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    if (this.scheduler.doesExist('timeout', this.timerName)) {
      this.scheduler.deleteTimeout(this.timerName);
    }
    await this.inFlight;
    const released = await this.dispatcher.releaseLeases(this.poller.owner);
    this.logger.log({ owner: this.poller.owner, released }, 'webhook deliveries released');
  }

  /** One round; answers whether a full batch was claimed (more may be due at once). */
  async tick(): Promise<boolean> {
    try {
      const now = new Date();
      if (now.getTime() - this.backlogMeasuredAt >= BACKLOG_EVERY_MS) {
        this.backlogMeasuredAt = now.getTime();
        await this.dispatcher.measureBacklog(now);
      }
      const claimed = await this.dispatcher.deliverDue(this.poller.owner, now);
      return claimed === this.dispatcher.batchSize;
    } catch (error: unknown) {
      this.metrics.tickFailures.inc();
      this.logger.error(
        { owner: this.poller.owner, err: error instanceof Error ? error.message : String(error) },
        'webhook tick failed; retried next tick',
      );
      return false;
    }
  }

  private arm(delayMs: number): void {
    if (this.stopping) {
      return;
    }
    const timer = setTimeout(() => {
      this.scheduler.deleteTimeout(this.timerName);
      this.inFlight = this.tick().then((full) => this.arm(full ? 0 : this.options.tickMs));
    }, delayMs);
    this.scheduler.addTimeout(this.timerName, timer);
  }
}
