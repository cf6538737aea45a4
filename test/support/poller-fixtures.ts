import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { generateAddress } from '#app/chains';
import { ChangellyAdapter } from '#app/provider';
import { testProviderConfig, type TestSandbox } from './sandbox.js';

/** Real sandbox transactions, `count` of `from` → eth, created through the adapter in bursts. */
export async function createSandboxTransactions(
  sandbox: TestSandbox,
  count: number,
  from = 'btc',
): Promise<string[]> {
  // Fixtures, not what is tested: a slow answer on a loaded machine is still an answer.
  const adapter = new ChangellyAdapter(testProviderConfig(sandbox.url, 15_000));
  const ids: string[] = [];
  for (let i = 0; i < count; i += 25) {
    const created = await Promise.all(
      Array.from({ length: Math.min(25, count - i) }, () =>
        adapter.createTransaction({
          from,
          to: 'eth',
          amountFrom: from === 'btc' ? '0.1' : '2',
          address: generateAddress('ethereum', (n) => randomBytes(n)),
        }),
      ),
    );
    ids.push(...created.map((tx) => tx.id));
  }
  return ids;
}

/**
 * One waiting swap per provider transaction of the organization `organizationId` (made with
 * `startHarness`'s partner, `h.newPartner()` or `createOrganization`).
 */
export async function seedSwaps(
  db: DataSource,
  providerIds: string[],
  { organizationId, from = 'btc' }: { organizationId: string; from?: string },
): Promise<void> {
  await db.query(
    `INSERT INTO swaps (provider, id, organization_id, provider_transaction_id, status, mode, from_ticker,
       to_ticker, amount_from, amount_expected_to, payin_address, payout_address, next_poll_at)
     SELECT 'changelly', substr(md5(random()::text || tx), 1, 16), $1, tx, 'waiting', 'float', $3::text, 'eth',
            CASE WHEN $3::text = 'btc' THEN 0.1 ELSE 2 END, 2, 'payin-' || tx, 'payout-' || tx, now()
       FROM unnest($2::text[]) AS tx`,
    [organizationId, providerIds, from],
  );
}

/** The live lane's current refresh cycle as the pollers share it. */
export async function currentCycle(
  db: DataSource,
): Promise<{ number: number; startedAt: Date; listingOver: boolean }> {
  const [row] = await db.query<{ number: string; started_at: Date; over: boolean }[]>(
    `SELECT number, started_at, end_page IS NOT NULL AND pages_done >= next_page AS over
       FROM poll_cycles WHERE lane = 'live'`,
  );
  return row
    ? { number: Number(row.number), startedAt: row.started_at, listingOver: row.over }
    : { number: 0, startedAt: new Date(0), listingOver: false };
}

/** Swaps of the org whose status the provider confirmed since `since`, no longer leased. */
export async function seenSince(
  db: DataSource,
  organizationId: string,
  since: Date,
): Promise<number> {
  const [row] = await db.query<{ count: number }[]>(
    `SELECT count(*)::int AS count FROM swaps
      WHERE organization_id = $1 AND last_seen_at >= $2 AND lease_owner IS NULL`,
    [organizationId, since],
  );
  return row.count;
}
