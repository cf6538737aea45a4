import { randomBytes } from 'node:crypto';
import { jest } from '@jest/globals';
import { generateSync } from 'otplib';
import type { Response } from 'supertest';
import {
  Clock,
  PasswordHasher,
  SIGN_IN_FAILURES_PER_ACCOUNT,
  SIGN_IN_FAILURES_PER_IP,
} from '#app/accounts';
import { TotpService } from '#app/dashboard-factors';
import { testRedisPrefix } from '../support/database.js';
import { createDashboardUser, DashboardClient, enrolTotp } from '../support/dashboard.js';
import { type Harness, startHarness } from '../support/harness.js';
import { createOrganization } from '../factories/partners.js';

const GUESSES = 20;
const SECRET = /sk_(?:live|test)_[0-9a-f]{48}/;

/** Whether an answer gave the browser a dashboard session. */
function startsSession(res: Response): boolean {
  const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  return cookies.some((cookie) => /^partner_session=[^;]+/.test(cookie));
}

/** How many answers had each status. */
function tally(answers: Response[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) {
    counts[status] = (counts[status] ?? 0) + 1;
  }
  return counts;
}

/**
 * Concurrent guesses from one address, the right one among them: each is counted before it is
 * checked, so no more than the limit are ever checked, and every guess beyond it is refused
 * unchecked (429 with Retry-After), the right one included.
 */
describe('Dashboard sign-in limits under concurrent guesses', () => {
  let harness: Harness;
  let organizationId: string;
  let now = Date.now();

  beforeAll(async () => {
    harness = await startHarness({ smtp: true });
    organizationId = await createOrganization(harness.api.app, { name: 'Crowded Door Ltd' });
    jest.spyOn(harness.api.app.get(Clock), 'now').mockImplementation(() => new Date(now));
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    await harness.close();
  });

  const counters: { mockRestore(): void }[] = [];

  afterEach(() => {
    for (const counter of counters.splice(0)) {
      counter.mockRestore();
    }
  });

  /** Counts the checks `method` of the api's `service` completes from now on, still making them. */
  function checks<T extends object>(service: T, method: keyof T & string): () => number {
    const original = (service[method] as (...args: unknown[]) => Promise<unknown>).bind(service);
    let completed = 0;
    const spy = jest.spyOn(service, method as never);
    counters.push(spy);
    spy.mockImplementation((async (...args: unknown[]) => {
      const result = await original(...args);
      completed += 1;
      return result;
    }) as never);
    return () => completed;
  }

  /** The right answer last, as a guesser who finds it would send it. */
  function guesses(wrong: (i: number) => string, right: string): string[] {
    return [...Array.from({ length: GUESSES - 1 }, (_, i) => wrong(i)), right];
  }

  function expectAtMostTheLimitChecked(answers: Response[], failed: number, passed: number): void {
    const counts = tally(answers);
    expect((counts[failed] ?? 0) + (counts[passed] ?? 0)).toBeLessThanOrEqual(
      SIGN_IN_FAILURES_PER_ACCOUNT,
    );
    expect(counts[429]).toBeGreaterThanOrEqual(GUESSES - SIGN_IN_FAILURES_PER_ACCOUNT);
    expect(answers.every((res) => [failed, passed, 429].includes(res.status))).toBe(true);
    for (const refused of answers.filter((res) => res.status === 429)) {
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);
      expect(startsSession(refused)).toBe(false);
    }
  }

  it('checks at most 5 passwords of 20 sent at once, and no session comes from the rest', async () => {
    const { email, password } = await createDashboardUser(harness.api, organizationId, 'viewer');
    const client = new DashboardClient(harness.api.url);
    await client.get('/partner/login');
    const hashed = checks(harness.api.app.get(PasswordHasher), 'verify');

    const answers = await Promise.all(
      guesses((i) => `${password}-${i}`, password).map((guess) =>
        client.post('/partner/login', { email, password: guess }),
      ),
    );

    expect(hashed()).toBeLessThanOrEqual(SIGN_IN_FAILURES_PER_ACCOUNT);
    expectAtMostTheLimitChecked(answers, 401, 303);
    for (const res of answers) {
      expect(startsSession(res)).toBe(res.status === 303);
    }
  });

  it('checks at most 5 second-factor codes of 20 sent at once', async () => {
    const { email, password } = await createDashboardUser(harness.api, organizationId, 'developer');
    const codeOf = (secret: string) => generateSync({ secret, epoch: Math.floor(now / 1000) });
    const enrolled = new DashboardClient(harness.api.url);
    await enrolled.signIn(email, password);
    const { secret } = await enrolTotp(enrolled, codeOf, { confirmPassword: password });
    now += 30_000;
    const client = new DashboardClient(harness.api.url);
    await client.get('/partner/login');
    const step = await client.post('/partner/login', { email, password });
    expect(step.headers.location).toBe('/partner/login/second-factor');
    await client.get('/partner/login/second-factor');
    const right = codeOf(secret);
    const verified = checks(harness.api.app.get(TotpService), 'verify');

    const answers = await Promise.all(
      guesses((i) => String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0'), right).map(
        (code) => client.post('/partner/login/second-factor', { code }),
      ),
    );

    expect(verified()).toBeLessThanOrEqual(SIGN_IN_FAILURES_PER_ACCOUNT);
    expectAtMostTheLimitChecked(answers, 401, 303);
    for (const res of answers) {
      expect(startsSession(res)).toBe(res.status === 303);
    }
  });

  it('checks at most 5 re-authentication passwords of 20 wrong ones sent at once', async () => {
    const { email, password } = await createDashboardUser(harness.api, organizationId, 'owner');
    const client = new DashboardClient(harness.api.url);
    await client.signIn(email, password);
    await client.get('/partner/api-keys');
    const created = await client.post('/partner/api-keys', { name: 'Server' });
    const publicKey = /pk_(?:live|test)_[0-9a-f]{32}/.exec(
      created.text.slice(created.text.indexOf('Your new key')),
    )![0];
    // Past the 5 minutes the sign-in's own re-authentication counts for.
    now += 6 * 60_000;
    await client.get('/partner/api-keys');
    const hashed = checks(harness.api.app.get(PasswordHasher), 'verify');

    // Wrong ones only: once one proof is right, the session is confirmed and the rest ask nothing.
    const answers = await Promise.all(
      Array.from({ length: GUESSES }, (_, i) =>
        client.post(`/partner/api-keys/${publicKey}/reveal`, {
          confirmPassword: `${password}-${i}`,
        }),
      ),
    );

    expect(hashed()).toBeLessThanOrEqual(SIGN_IN_FAILURES_PER_ACCOUNT);
    expectAtMostTheLimitChecked(answers, 403, 200);
    expect(answers.some((res) => SECRET.test(res.text))).toBe(false);
    const right = await client.post(`/partner/api-keys/${publicKey}/reveal`, {
      confirmPassword: password,
    });
    expect(right.status).toBe(429);
    expect(right.text).not.toMatch(SECRET);
  });
});

describe('Dashboard sign-in limit per address under concurrent guesses', () => {
  let harness: Harness;

  beforeAll(async () => {
    // Counters of their own: this test spends the whole allowance of its address.
    harness = await startHarness({
      smtp: true,
      api: {
        REDIS_KEY_PREFIX: `${testRedisPrefix()}ip-${randomBytes(3).toString('hex')}:`,
      },
    });
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    await harness.close();
  });

  it('counts 30 failures of 40 sent at once for 40 accounts, and refuses the other 10', async () => {
    const client = new DashboardClient(harness.api.url);
    await client.get('/partner/login');

    // Malformed addresses fail without a hash, so the hash queue's own bound plays no part.
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        client.post('/partner/login', {
          email: `crowd-${randomBytes(5).toString('hex')}`,
          password: 'Not-the-one-123',
        }),
      ),
    );

    expect(tally(answers)).toEqual({
      401: SIGN_IN_FAILURES_PER_IP,
      429: 40 - SIGN_IN_FAILURES_PER_IP,
    });
  });
});
