import request from 'supertest';
import { startTestApi, type TestApi } from '../support/api.js';
import { startHarness, type Harness } from '../support/harness.js';

const RATE_PER_SECOND = 45;
const SECONDS = 6;

/**
 * A client that keeps retrying past its limit: one credential (30/s) sends 45 requests a
 * second, spread over two api replicas that share the limit through Redis, and never slows
 * down. Refused requests are not counted, so it keeps getting the limit's worth through each
 * second instead of being locked out.
 */
describe('Rate limits: a client retrying at 1.5 times its limit', () => {
  let h: Harness;
  let replicas: TestApi[];

  beforeAll(async () => {
    h = await startHarness();
    // A second replica beside the harness's, on the same database, Redis prefix and provider.
    replicas = [h.api, await startTestApi({ PROVIDER_URL: h.sandbox.url })];
  }, 60_000);

  afterAll(async () => {
    await replicas?.[1].close();
    await h?.close();
  });

  it('gets 25 to 30 requests through every second, across replicas', async () => {
    const started = Date.now();
    const sends: Promise<{ at: number; status: number }>[] = [];
    for (let i = 0; i < RATE_PER_SECOND * SECONDS; i += 1) {
      const due = started + (i * 1000) / RATE_PER_SECOND;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
      const at = Date.now() - started;
      sends.push(
        request(replicas[i % 2].url)
          .get('/v1/swaps?limit=1')
          .set('Authorization', h.partner.authorization)
          .then((res) => ({ at, status: res.status })),
      );
    }
    const answers = await Promise.all(sends);
    expect(answers.map((a) => a.status).filter((s) => s !== 200 && s !== 429)).toEqual([]);
    const seconds = Math.ceil(Math.max(...answers.map((a) => a.at)) / 1000);
    const sent = Array.from({ length: seconds }, () => 0);
    const passed = Array.from({ length: seconds }, () => 0);
    for (const { at, status } of answers) {
      sent[Math.floor(at / 1000)] += 1;
      passed[Math.floor(at / 1000)] += Number(status === 200);
    }
    process.stdout.write(
      `retrying client: sent per second ${sent.join(', ')}; passed ${passed.join(', ')}\n`,
    );
    // The first second is the burst the window starts empty with. After it, the seconds in which
    // this client asked well past its limit (a loaded machine can delay its sends) are judged.
    // The limiter's one-second windows do not start when the client's seconds do, so one client
    // second can hold parts of two windows (22 beside 33): the rate is judged as their mean, and
    // no single second may fall to a lock-out or pass far more than the limit.
    const steady = passed.filter((_, second) => second > 0 && sent[second] >= 35);
    expect(steady.length).toBeGreaterThanOrEqual(3);
    const mean = steady.reduce((sum, count) => sum + count, 0) / steady.length;
    expect({ mean, within: mean >= 25 && mean <= 30 }).toEqual({ mean, within: true });
    expect(steady.filter((count) => count < 15)).toEqual([]);
    expect(passed.slice(1).filter((count) => count > 40)).toEqual([]);
  }, 60_000);
});
