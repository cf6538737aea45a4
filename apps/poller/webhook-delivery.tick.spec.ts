import { setTimeout as sleep } from 'node:timers/promises';
import { SchedulerRegistry } from '@nestjs/schedule';
import { PollMetrics } from '#app/polling';
import type { ClaimedDelivery, WebhookDispatcher } from '#app/webhooks';
import type { SwapPollerTick } from './swap-poller.tick.js';
import { WebhookDeliveryTick } from './webhook-delivery.tick.js';

/** A dispatcher with `due` deliveries waiting, each sent in `sendMs`, `concurrency` at once. */
class FakeDispatcher implements Pick<
  WebhookDispatcher,
  'concurrency' | 'claim' | 'deliver' | 'measureBacklog' | 'releaseLeases'
> {
  readonly concurrency = 5;
  claims = 0;
  delivered = 0;
  mostInFlight = 0;
  private inFlight = 0;

  constructor(
    private due: number,
    private readonly sendMs: number,
  ) {}

  claim(_owner: string, _now: Date, limit: number): Promise<ClaimedDelivery[]> {
    this.claims += 1;
    const taken = Math.min(limit, this.due);
    this.due -= taken;
    return Promise.resolve(
      Array.from({ length: taken }, () => ({ id: 'd' }) as unknown as ClaimedDelivery),
    );
  }

  async deliver(): Promise<void> {
    this.inFlight += 1;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    await sleep(this.sendMs);
    this.inFlight -= 1;
    this.delivered += 1;
  }

  measureBacklog(): Promise<void> {
    return Promise.resolve();
  }

  releaseLeases(): Promise<number> {
    return Promise.resolve(0);
  }
}

describe(WebhookDeliveryTick.name, () => {
  let ticks: WebhookDeliveryTick[] = [];

  function start(dispatcher: FakeDispatcher, tickMs: number): WebhookDeliveryTick {
    const tick = new WebhookDeliveryTick(
      dispatcher as unknown as WebhookDispatcher,
      new PollMetrics(),
      new SchedulerRegistry(),
      { owner: 'poller-1' } as SwapPollerTick,
      { pollMs: tickMs, testPollMs: tickMs, webhookMs: tickMs, mailMs: tickMs },
    );
    ticks.push(tick);
    tick.onApplicationBootstrap();
    return tick;
  }

  async function until(condition: () => boolean): Promise<void> {
    while (!condition()) {
      await sleep(10);
    }
  }

  afterEach(async () => {
    await Promise.all(ticks.map((tick) => tick.beforeApplicationShutdown()));
    ticks = [];
  });

  it('drains a backlog as fast as sends finish, not one round per tick', async () => {
    const dispatcher = new FakeDispatcher(200, 5);
    start(dispatcher, 60_000);

    // One round per tick would send 5 now and the next 5 a minute later.
    await until(() => dispatcher.delivered === 200);

    expect(dispatcher.mostInFlight).toBeLessThanOrEqual(dispatcher.concurrency);
  });

  it('stops looking early once a round finds nothing, and waits for the tick', async () => {
    const dispatcher = new FakeDispatcher(3, 5);
    start(dispatcher, 60_000);
    await until(() => dispatcher.delivered === 3);
    await sleep(200);

    // The first round found 3, the round their sends started found none; then only the tick.
    expect(dispatcher.claims).toBe(2);
  });
});
