import request from 'supertest';
import type { ProviderView } from '#app/provider-control';
import { PROVIDER_FLEET, type ProviderFleet } from '#app/provider';
import { startTestApi, TEST_ADMIN_TOKEN, type TestApi } from './support/api.js';
import { startHarness, type Harness } from './support/harness.js';
import { bothProviders } from './support/sandbox.js';
import { waitUntil } from './support/wait.js';

const ADMIN = `Bearer ${TEST_ADMIN_TOKEN}`;
/** The contract's bound: a switch reaches every replica within 5 s (they read it every 2 s). */
const EVERY_REPLICA_MS = 5_000;

/**
 * Operators' switches across two api replicas sharing Postgres and Redis, with `PROVIDERS`
 * naming both providers (docs/decisions.md, "Operators' view of routing"): a provider disabled
 * through one replica stops being asked by the other within 5 s, and comes back as fast.
 */
describe('Provider switches across two api replicas', () => {
  let h: Harness;
  let first: TestApi;
  let second: TestApi;

  beforeAll(async () => {
    h = await startHarness({ providers: 'both' });
    first = h.api;
    second = await startTestApi(bothProviders(h.sandbox));
  }, 60_000);

  afterAll(async () => {
    await second?.close();
    await h?.close();
  });

  function switchProvider(api: TestApi, id: string, action: 'disable' | 'enable'): request.Test {
    return request(api.url).post(`/admin/providers/${id}/${action}`).set('Authorization', ADMIN);
  }

  /** Whether `api` routes to Changelly, as its own view of the switches says. */
  async function routesToChangelly(api: TestApi): Promise<boolean> {
    const res = await request(api.url).get('/admin/providers').set('Authorization', ADMIN);
    const providers = (res.body as { providers: ProviderView[] }).providers;
    return providers.find((p) => p.id === 'changelly')?.enabled === true;
  }

  /** The Changelly quote calls the sandbox served so far. */
  async function changellyQuotes(): Promise<number> {
    return (await h.sandbox.control.stats()).calls.getExchangeAmount ?? 0;
  }

  async function quoteThrough(api: TestApi): Promise<request.Response> {
    return request(api.url)
      .post('/v1/quotes')
      .set('Authorization', h.partner.authorization)
      .send({ from: 'btc', to: 'eth', amountFrom: '0.1' });
  }

  it('takes Changelly out of routing on the other replica within 5 s, and back', async () => {
    const asked = await changellyQuotes();
    expect((await quoteThrough(second)).status).toBe(200);
    expect(await changellyQuotes()).toBe(asked + 1);

    const disabled = await switchProvider(first, 'changelly', 'disable').expect(200);
    expect(disabled.body.provider).toMatchObject({ id: 'changelly', enabled: false });
    expect(await routesToChangelly(first)).toBe(false);
    await waitUntil(
      'the other replica to take Changelly out of routing',
      async () => !(await routesToChangelly(second)),
      EVERY_REPLICA_MS,
      100,
    );

    const before = await changellyQuotes();
    const rerouted = await quoteThrough(second);
    expect(await changellyQuotes()).toBe(before);
    // With the ChangeNOW adapter in the fleet the quote is its; without, nothing is left to ask.
    const fleet = second.app.get<ProviderFleet>(PROVIDER_FLEET);
    expect(rerouted.status).toBe(fleet.find('changenow', true) ? 200 : 503);

    const last = await switchProvider(second, 'changenow', 'disable').expect(409);
    expect(last.body.error).toMatchObject({ code: 'conflict' });

    await switchProvider(first, 'changelly', 'enable').expect(200);
    await waitUntil(
      'the other replica to put Changelly back into routing',
      () => routesToChangelly(second),
      EVERY_REPLICA_MS,
      100,
    );
    const back = await changellyQuotes();
    expect((await quoteThrough(second)).status).toBe(200);
    expect(await changellyQuotes()).toBe(back + 1);
  });
});
