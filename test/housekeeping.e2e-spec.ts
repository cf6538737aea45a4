import { HousekeepingTick } from '../apps/poller/housekeeping.tick.js';
import { HousekeepingService } from '../apps/poller/housekeeping.service.js';
import { startHarness, type Harness } from './support/harness.js';

describe(HousekeepingTick.name, () => {
  let h: Harness;
  let sut: HousekeepingTick;

  beforeAll(async () => {
    h = await startHarness({ localPoller: { POLL_INTERVAL_MS: '60000' } });
    sut = h.localPoller.context.get(HousekeepingTick);
  });

  afterAll(async () => {
    await h?.close();
  });

  it('purges expired idempotency keys and long-expired unused rates, nothing else', async () => {
    const partner = await h.newPartner();
    const [{ id: credentialId }] = await h.db.query<{ id: string }[]>(
      'SELECT id FROM credentials WHERE public_key = $1',
      [partner.publicKey],
    );
    await h.db.query(
      `INSERT INTO idempotency_keys (credential_id, key, fingerprint, state, expires_at) VALUES
         ($1, 'old', 'f', 'pending', now() - interval '1 minute'),
         ($1, 'live', 'f', 'pending', now() + interval '1 hour')`,
      [credentialId],
    );
    const rate = (id: string, expires: string, used: boolean) =>
      h.db.query(
        `INSERT INTO fixed_rates (id, provider, provider_rate_id, organization_id, from_ticker,
           to_ticker, amount_from, amount_to, network_fee, rate, expires_at, used_at)
         VALUES ($1, 'changelly', 'p', $2, 'btc', 'eth', 1, 1, 0, 1, now() + $3::interval, $4)`,
        [id, partner.organizationId, expires, used ? new Date() : null],
      );
    await rate('stale', '-2 days', false);
    await rate('used', '-2 days', true);
    await rate('recent', '-1 hour', false);

    expect(await h.localPoller.context.get(HousekeepingService).purgeExpired()).toEqual({
      idempotencyKeys: 1,
      fixedRates: 1,
      events: 0,
    });
    await sut.purge();

    const keys = await h.db.query<{ key: string }[]>(
      'SELECT key FROM idempotency_keys ORDER BY key',
    );
    expect(keys.map((k) => k.key)).toEqual(['live']);
    const rates = await h.db.query<{ id: string }[]>('SELECT id FROM fixed_rates ORDER BY id');
    expect(rates.map((r) => r.id)).toEqual(['recent', 'used']);
  });

  it('keeps events 30 days, then deletes them after their finished deliveries, never a pending one', async () => {
    const partner = await h.newPartner({ mode: 'test' });
    await h.db.query(
      `INSERT INTO swaps (provider, id, organization_id, livemode, status, mode, from_ticker, to_ticker,
         amount_from, amount_expected_to, payin_address, payout_address)
       VALUES ('changelly', '00000000000000aa', $1, false, 'finished', 'float', 'btc', 'eth', 1, 1, 'a', 'b')`,
      [partner.organizationId],
    );
    await h.db.query(
      `INSERT INTO webhook_endpoints (id, organization_id, livemode, url, events, secret_ciphertext)
       VALUES ('we_00000000000000000000aaaa', $1, false, 'https://example.com/h', '{swap.created}', 'x')`,
      [partner.organizationId],
    );
    const event = (id: string, age: string) =>
      h.db.query(
        `INSERT INTO events (id, organization_id, livemode, type, swap_id, data, created_at)
         VALUES ($1, $2, false, 'swap.created', '00000000000000aa', '{}', now() - $3::interval)`,
        [id, partner.organizationId, age],
      );
    await event('evt_0000000000000000000000a1', '31 days');
    await event('evt_0000000000000000000000a2', '31 days');
    await event('evt_0000000000000000000000a3', '31 days');
    await event('evt_0000000000000000000000a4', '29 days');
    await h.db.query(
      `INSERT INTO webhook_deliveries (endpoint_id, event_id, status) VALUES
         ('we_00000000000000000000aaaa', 'evt_0000000000000000000000a2', 'failed'),
         ('we_00000000000000000000aaaa', 'evt_0000000000000000000000a3', 'pending')`,
    );

    const purged = await h.localPoller.context.get(HousekeepingService).purgeExpired();

    expect(purged.events).toBe(2);
    const left = await h.db.query<{ id: string }[]>('SELECT id FROM events ORDER BY id');
    expect(left.map((e) => e.id)).toEqual([
      'evt_0000000000000000000000a3',
      'evt_0000000000000000000000a4',
    ]);
    const deliveries = await h.db.query<{ event_id: string }[]>(
      'SELECT event_id FROM webhook_deliveries',
    );
    expect(deliveries.map((d) => d.event_id)).toEqual(['evt_0000000000000000000000a3']);
  });
});
