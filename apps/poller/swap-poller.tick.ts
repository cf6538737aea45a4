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
import { ScheduledLoop } from './scheduled-loop.js';

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
  private readonly loops: ScheduledLoop[];
  private readonly lagMeasuredAt = new Map<PollLane['name'], number>();
  private stopping = false;

  constructor(
    private readonly polling: SwapPollingService,
    private readonly swaps: SwapsRepository,
    private readonly metrics: PollMetrics,
    scheduler: SchedulerRegistry,
    @InjectConfig(TICKS_CONFIG) ticks: TicksConfig,
  ) {
    this.loops = polling.lanes.map(
      (lane) =>
        new ScheduledLoop(
          scheduler,
          `swap-poller:${lane.name}:${this.owner}`,
          lane.livemode ? ticks.pollMs : ticks.testPollMs,
          () => this.tick(lane),
        ),
    );
  }

  onApplicationBootstrap(): void {
    for (const loop of this.loops) {
      loop.start();
    }
    this.logger.log(
      { owner: this.owner, lanes: this.polling.lanes.map((l) => l.name) },
      'poll lanes armed',
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.loops.map((loop) => loop.stop()));
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
}
