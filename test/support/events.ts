import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { EventRecorder } from '#app/events';
import type { SwapView } from '#app/swaps';
import type { TestPartner } from '../factories/partners.js';

/**
 * One stored live swap of `who`, as `GET /v1/swaps/{id}` shows it: the data of the events a
 * test records for it without going through the provider.
 */
export async function seedSwapView(
  db: DataSource,
  apiUrl: string,
  who: TestPartner,
): Promise<SwapView> {
  const id = randomBytes(8).toString('hex');
  await db.query(
    `INSERT INTO swaps (provider, id, organization_id, provider_transaction_id, status, mode, from_ticker,
       to_ticker, amount_from, amount_expected_to, payin_address, payout_address)
     VALUES ('changelly', $1, $2, $3, 'confirming', 'float', 'btc', 'eth', 0.1, 2, 'payin', 'payout')`,
    [id, who.organizationId, `tx-${id}`],
  );
  const res = await request(apiUrl)
    .get(`/v1/swaps/${id}`)
    .set('Authorization', who.authorization)
    .expect(200);
  return res.body.swap as SwapView;
}

/** Records a `swap.status_changed` event through the app's own recorder and outbox. */
export async function recordStatusChange(
  app: INestApplicationContext,
  who: TestPartner,
  swap: SwapView,
): Promise<void> {
  const recorder = app.get(EventRecorder);
  await app
    .get(DataSource)
    .transaction((manager) =>
      recorder.swapStatusChanged(manager, who.organizationId, swap, 'exchanging'),
    );
}
