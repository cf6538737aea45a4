import { pino } from 'pino';
import type { DataSource } from 'typeorm';
import { loadPollerConfig } from '#app/config';
import { HousekeepingTick } from '../apps/poller/housekeeping.tick.js';
import { startPoller, type PollerProcess } from '../apps/poller/poller.bootstrap.js';
import { HousekeepingService } from '../apps/poller/housekeeping.service.js';
import { createPartner } from './factories/partners.js';
import { startTestApi, testApiEnv, TestApi } from './support/api.js';
import { openTestDataSource, truncateAll } from './support/database.js';

describe(HousekeepingTick.name, () => {
  let api: TestApi;
  let poller: PollerProcess;
  let db: DataSource;
  let sut: HousekeepingTick;

  beforeAll(async () => {
    await truncateAll();
    api = await startTestApi();
    db = await openTestDataSource();
    poller = await startPoller(
      loadPollerConfig(testApiEnv({ POLLER_HEALTH_PORT: '0', POLL_INTERVAL_MS: '60000' })),
      pino({ level: 'silent' }),
      { shutdownHooks: false },
    );
    sut = poller.context.get(HousekeepingTick);
  });

  afterAll(async () => {
    await poller.close();
    await db.destroy();
    await api.close();
  });

  it('purges expired idempotency keys and long-expired unused rates, nothing else', async () => {
    const partner = await createPartner(api.app);
    const [{ id: credentialId }] = await db.query<{ id: string }[]>(
      'SELECT id FROM credentials WHERE public_key = $1',
      [partner.publicKey],
    );
    await db.query(
      `INSERT INTO idempotency_keys (credential_id, key, fingerprint, state, expires_at) VALUES
         ($1, 'old', 'f', 'pending', now() - interval '1 minute'),
         ($1, 'live', 'f', 'pending', now() + interval '1 hour')`,
      [credentialId],
    );
    const rate = (id: string, expires: string, used: boolean) =>
      db.query(
        `INSERT INTO fixed_rates (id, provider, provider_rate_id, organization_id, from_ticker,
           to_ticker, amount_from, amount_to, network_fee, rate, expires_at, used_at)
         VALUES ($1, 'changelly', 'p', $2, 'btc', 'eth', 1, 1, 0, 1, now() + $3::interval, $4)`,
        [id, partner.organizationId, expires, used ? new Date() : null],
      );
    await rate('stale', '-2 days', false);
    await rate('used', '-2 days', true);
    await rate('recent', '-1 hour', false);

    expect(await poller.context.get(HousekeepingService).purgeExpired()).toEqual({
      idempotencyKeys: 1,
      fixedRates: 1,
      events: 0,
    });
    await sut.purge();

    const keys = await db.query<{ key: string }[]>('SELECT key FROM idempotency_keys ORDER BY key');
    expect(keys.map((k) => k.key)).toEqual(['live']);
    const rates = await db.query<{ id: string }[]>('SELECT id FROM fixed_rates ORDER BY id');
    expect(rates.map((r) => r.id)).toEqual(['recent', 'used']);
  });

  it('keeps events 30 days, then deletes them after their finished deliveries, never a pending one', async () => {
    const partner = await createPartner(api.app, { mode: 'test' });
    await db.query(
      `INSERT INTO swaps (provider, id, organization_id, livemode, status, mode, from_ticker, to_ticker,
         amount_from, amount_expected_to, payin_address, payout_address)
       VALUES ('changelly', '00000000000000aa', $1, false, 'finished', 'float', 'btc', 'eth', 1, 1, 'a', 'b')`,
      [partner.organizationId],
    );
    await db.query(
      `INSERT INTO webhook_endpoints (id, organization_id, livemode, url, events, secret_ciphertext)
       VALUES ('we_00000000000000000000aaaa', $1, false, 'https://example.com/h', '{swap.created}', 'x')`,
      [partner.organizationId],
    );
    const event = (id: string, age: string) =>
      db.query(
        `INSERT INTO events (id, organization_id, livemode, type, swap_id, data, created_at)
         VALUES ($1, $2, false, 'swap.created', '00000000000000aa', '{}', now() - $3::interval)`,
        [id, partner.organizationId, age],
      );
    await event('evt_0000000000000000000000a1', '31 days');
    await event('evt_0000000000000000000000a2', '31 days');
    await event('evt_0000000000000000000000a3', '31 days');
    await event('evt_0000000000000000000000a4', '29 days');
    await db.query(
      `INSERT INTO webhook_deliveries (endpoint_id, event_id, status) VALUES
         ('we_00000000000000000000aaaa', 'evt_0000000000000000000000a2', 'failed'),
         ('we_00000000000000000000aaaa', 'evt_0000000000000000000000a3', 'pending')`,
    );

    const purged = await poller.context.get(HousekeepingService).purgeExpired();

    expect(purged.events).toBe(2);
    const left = await db.query<{ id: string }[]>('SELECT id FROM events ORDER BY id');
    expect(left.map((e) => e.id)).toEqual([
      'evt_0000000000000000000000a3',
      'evt_0000000000000000000000a4',
    ]);
    const deliveries = await db.query<{ event_id: string }[]>(
      'SELECT event_id FROM webhook_deliveries',
    );
    expect(deliveries.map((d) => d.event_id)).toEqual(['evt_0000000000000000000000a3']);
  });
});
