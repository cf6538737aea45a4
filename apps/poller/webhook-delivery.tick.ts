import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { InjectConfig, TICKS_CONFIG, type TicksConfig } from '#app/config';
import { PollMetrics } from '#app/polling';
import { WebhookDispatcher } from '#app/webhooks';
import { ScheduledLoop } from './scheduled-loop.js';
import { SwapPollerTick } from './swap-poller.tick.js';

/** The backlog gauges are refreshed this often, not every tick. */
const BACKLOG_EVERY_MS = 5_000;

/**
 * The webhook delivery loop, separate from swap polling so a slow provider never delays a
 * webhook nor the reverse. A short tick (250 ms by default) keeps a new event's delivery within
 * the 2 s the contract allows. Sends are not awaited by the tick: a slow receiver (up to 10 s)
 * holds one of the poller's sending slots, never the loop, so other endpoints keep getting
 * theirs at once. While the last round found work, each finished send starts the next round at
 * once instead of at the next tick, so a backlog drains as fast as receivers answer, not at one
 * round per tick. On shutdown the sends in flight finish and this poller's leases are released.
 */
@Injectable()
export class WebhookDeliveryTick implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookDeliveryTick.name);
  private readonly loop: ScheduledLoop;
  private readonly sending = new Set<Promise<void>>();
  private ticking: Promise<void> = Promise.resolve();
  /** A round is queued behind the one running. */
  private queued = false;
  /** The last round claimed something: more may be due. */
  private foundWork = false;
  private stopping = false;
  private backlogMeasuredAt = 0;

  constructor(
    private readonly dispatcher: WebhookDispatcher,
    private readonly metrics: PollMetrics,
    scheduler: SchedulerRegistry,
    private readonly poller: SwapPollerTick,
    @InjectConfig(TICKS_CONFIG) ticks: TicksConfig,
  ) {
    this.loop = new ScheduledLoop(
      scheduler,
      `webhook-delivery:${poller.owner}`,
      ticks.webhookMs,
      () => this.round(),
    );
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.loop.stop();
    await this.ticking;
    await Promise.all(this.sending);
    const released = await this.dispatcher.releaseLeases(this.poller.owner);
    this.logger.log({ owner: this.poller.owner, released }, 'webhook deliveries released');
  }

  /** One round: claims what free sending slots allow and starts each send. */
  async tick(): Promise<void> {
    // A send finishing from here on may queue the next round.
    this.queued = false;
    try {
      const now = new Date();
      if (now.getTime() - this.backlogMeasuredAt >= BACKLOG_EVERY_MS) {
        this.backlogMeasuredAt = now.getTime();
        await this.dispatcher.measureBacklog(now);
      }
      const room = this.dispatcher.concurrency - this.sending.size;
      if (room <= 0) {
        return;
      }
      const claimed = await this.dispatcher.claim(this.poller.owner, now, room);
      this.foundWork = claimed.length > 0;
      for (const delivery of claimed) {
        const send = this.dispatcher
          .deliver(this.poller.owner, delivery, now)
          .catch((error: unknown) => this.failed(error))
          .finally(() => {
            this.sending.delete(send);
            this.sent();
          });
        this.sending.add(send);
      }
    } catch (error: unknown) {
      this.foundWork = false;
      this.failed(error);
    }
  }

  /** A slot came free: while there was work, the next round starts now, one at a time. */
  private sent(): void {
    if (this.stopping || !this.foundWork || this.queued) {
      return;
    }
    this.queued = true;
    void this.round();
  }

  /** Runs a round after the one running, never beside it, so rooms are counted right. */
  private round(): Promise<void> {
    this.ticking = this.ticking.then(() => this.tick());
    return this.ticking;
  }

  /** What reaches here is unexpected: counted, logged; the lease runs out and another try follows. */
  private failed(error: unknown): void {
    this.metrics.tickFailures.inc();
    this.logger.error(
      { owner: this.poller.owner, err: error instanceof Error ? error.message : String(error) },
      'webhook delivery failed; retried once its lease runs out',
    );
  }
}
