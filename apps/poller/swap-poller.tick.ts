import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { InjectConfig, TICKS_CONFIG, type TicksConfig } from '#app/config';
import { PollMetrics, SwapPollingService, type PollLane } from '#app/polling';
import { SwapsRepository } from '#app/swaps';
import { traceRoot } from '#app/tracing';

/** The lag gauges are refreshed this often, not every tick. */
const LAG_EVERY_MS = 10_000;

/**
 * The poller's clocks, one per lane (a provider in a mode): a tick every `pollMs` that never
 * overlaps itself (the next one is armed when the previous one ends), so a slow or hung provider
 * never delays another provider's swaps, nor a slow live cycle test swaps. It only delegates; on shutdown the batches in flight are finished
 * and whatever this poller still leases is released for the others.
 */
@Injectable()
export class SwapPollerTick implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(SwapPollerTick.name);
  /** Lease owner: unique per process and per instance (tests run several in one process). */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly lagMeasuredAt = new Map<PollLane['name'], number>();
  private stopping = false;

  constructor(
    private readonly polling: SwapPollingService,
    private readonly swaps: SwapsRepository,
    private readonly metrics: PollMetrics,
    private readonly scheduler: SchedulerRegistry,
    @InjectConfig(TICKS_CONFIG) private readonly ticks: TicksConfig,
  ) {}

  onApplicationBootstrap(): void {
    for (const lane of this.polling.lanes) {
      this.arm(lane, 0);
    }
    this.logger.log(
      { owner: this.owner, lanes: this.polling.lanes.map((l) => l.name) },
      'poll lanes armed',
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const lane of this.polling.lanes) {
      if (this.scheduler.doesExist('timeout', this.timerName(lane))) {
        this.scheduler.deleteTimeout(this.timerName(lane));
      }
    }
    await Promise.all(this.inFlight);
    const released = await this.swaps.releaseLeases(this.owner);
    this.logger.log({ owner: this.owner, released }, 'poller stopped');
  }

  /**
   * One tick of one lane, a trace of its own when tracing is on: every failure inside is already
   * decided; what reaches here is counted, logged.
   */
  async tick(lane: PollLane): Promise<void> {
    try {
      if (Date.now() - (this.lagMeasuredAt.get(lane.name) ?? 0) >= LAG_EVERY_MS) {
        this.lagMeasuredAt.set(lane.name, Date.now());
        await this.polling.measureLag(lane);
      }
      await traceRoot('poller.refresh_round', { 'poller.lane': lane.name }, async (notes) => {
        const report = await this.polling.pollDue(lane, this.owner, () => !this.stopping);
        notes.add({
          'poller.swaps_refreshed': report.refreshed,
          'poller.provider_calls': report.calls,
        });
      });
    } catch (error: unknown) {
      this.metrics.tickFailures.inc();
      this.logger.error(
        {
          owner: this.owner,
          lane: lane.name,
          err: error instanceof Error ? error.message : String(error),
        },
        'poll tick failed; retried next tick',
      );
    }
  }

  private timerName(lane: PollLane): string {
    return `swap-poller:${lane.name}:${this.owner}`;
  }

  private arm(lane: PollLane, delayMs: number): void {
    if (this.stopping) {
      return;
    }
    const name = this.timerName(lane);
    const timer = setTimeout(() => {
      this.scheduler.deleteTimeout(name);
      const running = this.tick(lane).finally(() => {
        this.inFlight.delete(running);
        this.arm(lane, lane.livemode ? this.ticks.pollMs : this.ticks.testPollMs);
      });
      this.inFlight.add(running);
    }, delayMs);
    // Registered so the schedule module owns it: listed, and cleared on shutdown.
    this.scheduler.addTimeout(name, timer);
  }
}
