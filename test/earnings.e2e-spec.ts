import { randomBytes, randomUUID } from 'node:crypto';
import { Decimal } from 'decimal.js';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { generateAddress } from '#app/chains';
import { EarningsRepository } from '#app/earnings';
import type { TestPartner } from './factories/partners.js';
import { testApiEnv, TEST_ADMIN_TOKEN } from './support/api.js';
import { startHarness, type Harness } from './support/harness.js';
import { spawnServices, type ServiceProcess } from './support/processes.js';

const random = (n: number): Uint8Array => randomBytes(n);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const ADMIN = `Bearer ${TEST_ADMIN_TOKEN}`;

interface EarningsBody {
  organizationId: string;
  balanceUsd: string;
  payoutThresholdUsd: string;
  entries: { swapId: string; amountUsd: string; amountActualFrom: string; feePercent: string }[];
  payouts: {
    amountUsd: string;
    asset: string;
    network: string;
    address: string | null;
    status: string;
  }[];
}

describe('Earnings: ledger, payouts and the admin view', () => {
  let h: Harness;
  let pollers: ServiceProcess[] = [];
  let partner: TestPartner;

  beforeAll(async () => {
    h = await startHarness({ sandbox: { stepMs: 200 }, partner: { feePercent: '1' } });
    partner = h.partner;
    const pollerEnv = testApiEnv({
      PROVIDER_URL: h.sandbox.url,
      POLL_INTERVAL_MS: '300',
      POLLER_TICK_MS: '50',
    });
    // Two poller processes watch the same swaps: each finish must still be booked once.
    pollers = await spawnServices('poller', [pollerEnv, pollerEnv]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(pollers.map((p) => p.stop()));
    await h?.close();
  });

  async function earnings(organizationId: string): Promise<EarningsBody> {
    const res = await request(h.api.url)
      .get(`/admin/organizations/${organizationId}/earnings`)
      .set('Authorization', ADMIN)
      .expect(200);
    return res.body.earnings as EarningsBody;
  }

  async function finishSwap(amountFrom: string): Promise<string> {
    const res = await request(h.api.url)
      .post('/v1/swaps')
      .set('Authorization', partner.authorization)
      .set('Idempotency-Key', randomUUID())
      .send({ from: 'btc', to: 'eth', amountFrom, address: generateAddress('ethereum', random) })
      .expect(201);
    const id = res.body.swap.id as string;
    const [row] = await h.db.query<{ provider_transaction_id: string }[]>(
      'SELECT provider_transaction_id FROM swaps WHERE id = $1',
      [id],
    );
    await h.sandbox.control.deposit(row.provider_transaction_id);
    return id;
  }

  it('books 1 % of each finished swap once and makes one payout due at 100 USD', async () => {
    const payoutAddress = generateAddress('ethereum', random);
    await request(h.api.url)
      .patch(`/admin/organizations/${partner.organizationId}`)
      .set('Authorization', ADMIN)
      .send({ payoutNetwork: 'erc20', payoutAddress })
      .expect(200);
    // About 6 500 USD each at the sandbox's BTC price: 65 USD of fees per swap.
    const swapIds = await Promise.all(['0.1', '0.1', '0.1'].map((amount) => finishSwap(amount)));

    const deadline = Date.now() + 15000;
    let body = await earnings(partner.organizationId);
    while (body.entries.length < 3 && Date.now() < deadline) {
      await sleep(100);
      body = await earnings(partner.organizationId);
    }
    await sleep(1000);
    body = await earnings(partner.organizationId);

    expect(body.entries.map((e) => e.swapId).sort()).toEqual([...swapIds].sort());
    expect(body.entries.every((e) => e.feePercent === '1' && e.amountActualFrom === '0.1')).toBe(
      true,
    );
    const earned = body.entries.reduce((sum, e) => sum.plus(e.amountUsd), new Decimal(0));
    expect(body.payouts).toHaveLength(1);
    const payout = body.payouts[0];
    expect(payout).toMatchObject({
      asset: 'usdt',
      network: 'erc20',
      address: payoutAddress,
      status: 'due',
    });
    expect(new Decimal(payout.amountUsd).gte(100)).toBe(true);
    expect(new Decimal(body.balanceUsd).lt(100)).toBe(true);
    expect(new Decimal(payout.amountUsd).plus(body.balanceUsd).eq(earned)).toBe(true);
    expect(body.payoutThresholdUsd).toBe('100');
    const [{ count }] = await h.db.query<{ count: number }[]>(
      'SELECT count(*)::int AS count FROM earnings_ledger WHERE organization_id = $1',
      [partner.organizationId],
    );
    expect(count).toBe(3);
  });

  it('books a swap once even when two writers race for it', async () => {
    const other = await h.newPartner({ feePercent: '2' });
    const [swap] = await h.db.query<{ id: string }[]>(
      `INSERT INTO swaps (provider, id, organization_id, status, mode, from_ticker, to_ticker, amount_from,
         payin_address, payout_address)
       VALUES ('changelly', $1, $2, 'finished', 'float', 'usdtrx', 'btc', 7500, 'in', 'out') RETURNING id`,
      [randomBytes(8).toString('hex'), other.organizationId],
    );
    const sut = h.api.app.get(EarningsRepository);
    const dataSource = h.api.app.get(DataSource);
    const entry = {
      organizationId: other.organizationId,
      swapId: swap.id,
      feePercent: '2',
      amountActualFrom: '7500',
      from: 'usdtrx',
      usdPrice: '1',
      amountUsd: '150',
    };

    const results = await Promise.all(
      [1, 2].map(() => dataSource.transaction((manager) => sut.bookWithin(manager, entry))),
    );

    expect(results.filter((r) => r.earningsBooked)).toHaveLength(1);
    const body = await earnings(other.organizationId);
    expect(body.entries).toHaveLength(1);
    expect(body.payouts).toEqual([
      expect.objectContaining({ amountUsd: '150', network: 'trc20', address: null, status: 'due' }),
    ]);
    expect(body.balanceUsd).toBe('0');
  });

  it('answers 404 for an unknown organization and 401 without the admin token', async () => {
    await request(h.api.url)
      .get(`/admin/organizations/${randomUUID()}/earnings`)
      .set('Authorization', ADMIN)
      .expect(404);
    await request(h.api.url)
      .get('/admin/organizations/not-a-uuid/earnings')
      .set('Authorization', ADMIN)
      .expect(404);
    await request(h.api.url)
      .get(`/admin/organizations/${partner.organizationId}/earnings`)
      .expect(401);
  });
});
