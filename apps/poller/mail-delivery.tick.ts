import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { InjectConfig, TICKS_CONFIG, type TicksConfig } from '#app/config';
import { MailDispatcher } from '#app/mail';
import { ScheduledLoop } from './scheduled-loop.js';
import { SwapPollerTick } from './swap-poller.tick.js';

/**
 * The mail loop: sends the outbox's due mail (docs/decisions.md, "Dashboard mail and its
 * doors"). Rounds never overlap; while a round found mail, the next starts at once, so a backlog
 * drains at the server's pace. A failed round is logged; its mails' leases run out and another
 * round sends them.
 */
@Injectable()
export class MailDeliveryTick implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(MailDeliveryTick.name);
  private readonly loop: ScheduledLoop;
  private stopping = false;

  constructor(
    private readonly dispatcher: MailDispatcher,
    scheduler: SchedulerRegistry,
    poller: SwapPollerTick,
    @InjectConfig(TICKS_CONFIG) ticks: TicksConfig,
  ) {
    this.loop = new ScheduledLoop(scheduler, `mail-delivery:${poller.owner}`, ticks.mailMs, () =>
      this.tick(),
    );
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.loop.stop();
  }

  /** Sends due mail until a round finds none, then measures what still waits. */
  async tick(): Promise<void> {
    try {
      while (!this.stopping && (await this.dispatcher.sendDue()) > 0) {
        // More may be due: the next round starts now.
      }
      await this.dispatcher.measureBacklog();
    } catch (error: unknown) {
      this.logger.error(
        { err: error instanceof Error ? error.message : String(error) },
        'mail round failed; its mail is sent once the leases run out',
      );
    }
  }
}
