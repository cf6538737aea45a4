import { SchedulerRegistry } from '@nestjs/schedule';
import { ScheduledLoop } from './scheduled-loop.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(ScheduledLoop.name, () => {
  it('never runs a round beside itself, runs again after one fails, and stops after the one running', async () => {
    const scheduler = new SchedulerRegistry();
    let running = 0;
    let mostAtOnce = 0;
    let rounds = 0;
    const loop = new ScheduledLoop(scheduler, 'test-loop', 5, async () => {
      rounds += 1;
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      await sleep(20);
      running -= 1;
      if (rounds === 1) {
        throw new Error('a round that failed');
      }
    });

    loop.start();
    // Until a round after the failed one has begun: however slow the machine, not a set time.
    const deadline = Date.now() + 10_000;
    while (rounds < 3 && Date.now() < deadline) {
      await sleep(5);
    }
    await loop.stop();
    const roundsAtStop = rounds;
    await sleep(50);

    expect({ mostAtOnce, running, after: rounds }).toEqual({
      mostAtOnce: 1,
      running: 0,
      after: roundsAtStop,
    });
    expect(roundsAtStop).toBeGreaterThanOrEqual(3);
    expect(scheduler.getTimeouts()).toEqual([]);
  });
});
