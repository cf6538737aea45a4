import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { SwapStatus } from '#app/domain';

/** A stored swap as a test wants it; everything not given takes a plain default. */
export interface StoredSwap {
  organizationId: string;
  createdAt: string;
  id?: string;
  livemode?: boolean;
  status?: SwapStatus;
  from?: string;
  to?: string;
  amountFrom?: string;
  amountActualFrom?: string | null;
  payinAddress?: string;
  payoutAddress?: string;
  partnerReferenceId?: string | null;
}

/** Inserts swaps as the service stores them (ids as it mints them) and answers their ids. */
export async function insertSwaps(db: DataSource, swaps: StoredSwap[]): Promise<string[]> {
  const ids: string[] = [];
  for (const swap of swaps) {
    const id = swap.id ?? randomBytes(8).toString('hex');
    await db.query(
      `INSERT INTO swaps (provider, id, organization_id, livemode, status, mode, from_ticker, to_ticker,
         amount_from, amount_expected_to, amount_actual_from, payin_address, payout_address,
         partner_reference_id, created_at, updated_at)
       VALUES ('changelly', $1, $2, $3, $4, 'float', $5, $6, $7, 1.5, $8, $9, $10, $11, $12, $12)`,
      [
        id,
        swap.organizationId,
        swap.livemode ?? true,
        swap.status ?? 'waiting',
        swap.from ?? 'btc',
        swap.to ?? 'eth',
        swap.amountFrom ?? '0.1',
        swap.amountActualFrom ?? null,
        swap.payinAddress ?? `payin-${id}`,
        swap.payoutAddress ?? `payout-${id}`,
        swap.partnerReferenceId ?? null,
        swap.createdAt,
      ],
    );
    ids.push(id);
  }
  return ids;
}

const STATUSES: SwapStatus[] = ['finished', 'finished', 'finished', 'waiting', 'expired', 'failed'];
const PAIRS = [
  ['btc', 'eth'],
  ['eth', 'btc'],
  ['ltc', 'usdtrx'],
  ['trx', 'btc'],
  ['sol', 'eth'],
];

/**
 * `count` live swaps of one organization in one statement, spread evenly over the `days` before
 * now: statuses mostly finished, five pairs, one in 500 on `hold`, every tenth with a reference.
 */
export async function insertManySwaps(
  db: DataSource,
  organizationId: string,
  count: number,
  days: number,
): Promise<void> {
  await db.query(
    `INSERT INTO swaps (provider, id, organization_id, livemode, status, mode, from_ticker, to_ticker,
       amount_from, amount_expected_to, amount_actual_from, payin_address, payout_address,
       partner_reference_id, created_at, updated_at)
     SELECT 'changelly', substr(md5($1::text || n), 1, 16), $1::uuid, true,
            CASE WHEN n % 500 = 0 THEN 'hold' ELSE ($2::text[])[1 + n % 6] END,
            'float', ($3::text[])[1 + n % 5], ($4::text[])[1 + n % 5], 0.1, 1.5,
            CASE WHEN n % 6 < 3 THEN 0.1 END,
            'payin-' || md5('in' || $1::text || n), 'payout-' || md5('out' || $1::text || n),
            CASE WHEN n % 10 = 0 THEN 'order-' || n END,
            now() - ($5::float8 * n / $6) * interval '1 day',
            now()
       FROM generate_series(1, $6) AS n`,
    [organizationId, STATUSES, PAIRS.map((p) => p[0]), PAIRS.map((p) => p[1]), days, count],
  );
}
