import { randomBytes, randomUUID } from 'node:crypto';
import { Decimal } from 'decimal.js';
import { Test, type TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { generateAddress } from '#app/chains';
import { CoreModule } from '#app/core';
import type { OwnerScope } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { EventRecorder, EventsModule, EventsRepository } from '#app/events';
import { OrganizationsService, PartnersModule } from '#app/partners';
import {
  decodeKeyset,
  type KeysetPage,
  type KeysetPageRequest,
  type KeysetPosition,
} from '#app/persistence';
import {
  ActivityService,
  EarningsRepository,
  EarningsService,
  PartnerEarningsModule,
  PayoutAddressService,
} from '#app/earnings';
import {
  SWAP_CSV_FIELDS,
  SwapQueryService,
  SwapSearchModule,
  SwapSearchService,
  SwapsDataModule,
  toSwapView,
  type SwapFilters,
  type SwapView,
} from '#app/swaps';
import { SwapsRepository } from '#app/swaps';
import {
  ENDPOINT_FAIRNESS,
  WebhookDeliveryClaims,
  WebhookDeliveryHistory,
  WebhookOutbox,
  WebhooksDataModule,
} from '#app/webhooks';
import { createOrganization } from './factories/partners.js';
import { insertManySwaps, insertSwaps, type StoredSwap } from './factories/swaps.js';
import { TEST_ENCRYPTION_KEY } from './support/api.js';
import { parseCsv } from './support/csv.js';
import { analyzedPlan, lastStatement, planNodes, type PlanNode } from './support/plans.js';
import {
  openTestDataSource,
  testDatabaseUrl,
  testRedisPrefix,
  testRedisUrl,
} from './support/database.js';
import { altered } from './support/tamper.js';

const random = (n: number): Uint8Array => randomBytes(n);

async function collect(chunks: AsyncGenerator<string, void, undefined>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) {
    text += chunk;
  }
  return text;
}

/** The position a page token names (tokens are this service's own). */
function decode(token: string): KeysetPosition {
  const position = decodeKeyset(token, /^.+$/);
  if (!position) {
    throw new Error(`not a page token: ${token}`);
  }
  return position;
}

/** The rows of a CSV as objects keyed by its header. */
function records(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i]])));
}

function cellOf(value: SwapView[keyof SwapView]): string {
  return value === null ? '' : String(value);
}

describe('Dashboard reads: swaps, earnings, activity, deliveries', () => {
  let moduleRef: TestingModule;
  let db: DataSource;
  let appDb: DataSource;
  let search: SwapSearchService;
  let organizations: OrganizationsService;

  const newOrganization = (name = `Dash org ${randomUUID()}`) =>
    createOrganization(moduleRef, { name });

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [
        CoreModule.forRoot({
          database: { url: testDatabaseUrl(), timeoutMs: 5000 },
          redis: { url: testRedisUrl(), keyPrefix: testRedisPrefix() },
          credentials: { encryptionKey: Buffer.from(TEST_ENCRYPTION_KEY, 'base64') },
        }),
        PartnersModule,
        EventsModule,
        SwapsDataModule,
        SwapSearchModule,
        PartnerEarningsModule,
        WebhooksDataModule,
      ],
      providers: [SwapQueryService],
    }).compile();
    moduleRef.get(EventRecorder).bindOutbox(moduleRef.get(WebhookOutbox));
    // The tests' own connection has no statement timeout: seeding 100,000 swaps may take longer.
    db = await openTestDataSource();
    appDb = moduleRef.get(DataSource);
    search = moduleRef.get(SwapSearchService);
    organizations = moduleRef.get(OrganizationsService);
  });

  afterAll(async () => {
    await db.destroy();
    await moduleRef.close();
  });

  describe('swaps of one organization and mode', () => {
    let owner: OwnerScope;
    let other: OwnerScope;
    /** The owner's live swaps as stored, newest first (id breaking ties). */
    let expected: SwapView[];
    let testSwapId: string;
    let otherSwapId: string;

    beforeAll(async () => {
      owner = { organizationId: await newOrganization(), livemode: true };
      other = { organizationId: await newOrganization(), livemode: true };
      const base = Date.parse('2026-10-01T00:00:00Z');
      const swaps: StoredSwap[] = Array.from({ length: 120 }, (_, i) => ({
        organizationId: owner.organizationId,
        // Five swaps share each instant, so the id must break ties for paging to be exact.
        createdAt: new Date(base + Math.floor(i / 5) * 6 * 3_600_000).toISOString(),
        status: i % 3 === 0 ? 'finished' : 'waiting',
        from: i % 2 === 0 ? 'btc' : 'ltc',
        to: 'eth',
        partnerReferenceId: `order-${i}`,
      }));
      await insertSwaps(db, swaps);
      // Microseconds apart within one millisecond: the keyset must keep them apart.
      await db.query(
        `UPDATE swaps SET created_at = created_at + interval '1 microsecond' * (ascii(id) % 7)
          WHERE organization_id = $1`,
        [owner.organizationId],
      );
      [testSwapId] = await insertSwaps(db, [
        {
          organizationId: owner.organizationId,
          livemode: false,
          createdAt: '2026-10-02T00:00:00Z',
        },
      ]);
      [otherSwapId] = await insertSwaps(db, [
        { organizationId: other.organizationId, createdAt: '2026-10-02T00:00:00Z' },
      ]);
      const rows = await db.query<{ id: string }[]>(
        `SELECT id FROM swaps WHERE organization_id = $1 AND livemode
          ORDER BY created_at DESC, id DESC`,
        [owner.organizationId],
      );
      const query = moduleRef.get(SwapQueryService);
      expected = await Promise.all(rows.map((row) => query.get(row.id, owner)));
    });

    async function allPages(filters: SwapFilters, limit = 50): Promise<SwapView[][]> {
      return (await walk(filters, limit)).map((page) => page.items);
    }

    /** Every page from the first, following "Next". */
    async function walk(filters: SwapFilters, limit: number): Promise<KeysetPage<SwapView>[]> {
      const pages = [await search.search(owner, filters, { limit })];
      for (let next = pages[0].next; next !== null; next = pages[pages.length - 1].next) {
        pages.push(await search.search(owner, filters, { limit, after: decode(next) }));
      }
      return pages;
    }

    it('pages through every swap once, newest first, and back again page by page', async () => {
      const forward = await walk({}, 50);
      expect(forward.map((p) => p.items.length)).toEqual([50, 50, 20]);
      expect(forward.flatMap((p) => p.items)).toEqual(expected);
      expect(forward[0].previous).toBeNull();

      // From the last page, "Previous" twice gives the first two pages again.
      let page = forward[2];
      const backwards: SwapView[][] = [];
      while (page.previous !== null) {
        page = await search.search(owner, {}, { limit: 50, before: decode(page.previous) });
        backwards.unshift(page.items);
      }
      expect(backwards).toEqual([expected.slice(0, 50), expected.slice(50, 100)]);
      expect(page.next).not.toBeNull();
    });

    it('filters by status, pair, one side of a pair and created days, both days included', async () => {
      const byStatus = (await allPages({ status: 'finished' }, 7)).flat();
      expect(byStatus).toEqual(expected.filter((s) => s.status === 'finished'));

      const byPair = (await allPages({ from: 'ltc', to: 'eth' }, 50)).flat();
      expect(byPair).toEqual(expected.filter((s) => s.from === 'ltc'));
      const fromOnly = (await allPages({ from: 'btc' })).flat();
      expect(fromOnly).toEqual(expected.filter((s) => s.from === 'btc'));

      // Four instants a day of five swaps each.
      const byDay = (await allPages({ createdFrom: '2026-10-02', createdTo: '2026-10-02' })).flat();
      expect(byDay).toEqual(expected.filter((s) => s.createdAt.startsWith('2026-10-02')));
      expect(byDay).toHaveLength(20);
      const combined = (
        await allPages({ status: 'waiting', from: 'btc', to: 'eth', createdFrom: '2026-10-03' })
      ).flat();
      expect(combined).toEqual(
        expected.filter(
          (s) => s.status === 'waiting' && s.from === 'btc' && s.createdAt >= '2026-10-03',
        ),
      );
    });

    it('finds a swap by id, reference, payin or payout address (any case), and nothing else', async () => {
      const target = expected[17];
      const found = async (q: string) =>
        (await search.search(owner, { search: q }, { limit: 50 })).items.map((s) => s.id);
      expect(await found(target.id)).toEqual([target.id]);
      expect(await found(target.partnerReferenceId ?? '')).toEqual([target.id]);
      expect(await found(target.payinAddress.toUpperCase())).toEqual([target.id]);
      expect(await found(target.payoutAddress)).toEqual([target.id]);
      expect(await found('ORDER-17')).toEqual([]);
      expect(await found(otherSwapId)).toEqual([]);
      expect(await found(testSwapId)).toEqual([]);
      expect(
        (await search.search({ ...owner, livemode: false }, { search: testSwapId }, { limit: 5 }))
          .items,
      ).toHaveLength(1);
    });

    it('lists the pairs the mode’s swaps use', async () => {
      expect(await search.pairs(owner)).toEqual([
        { from: 'btc', to: 'eth' },
        { from: 'ltc', to: 'eth' },
      ]);
      expect(await search.pairs({ organizationId: randomUUID(), livemode: true })).toEqual([]);
    });

    it('exports the filtered swaps as CSV: the API’s fields, every value as the API writes it', async () => {
      const text = await collect(search.exportCsv(owner, { status: 'finished' }));
      const [header] = parseCsv(text);
      expect(header).toEqual(SWAP_CSV_FIELDS);
      expect(header).toEqual(Object.keys(expected[0]));
      const finished = expected.filter((s) => s.status === 'finished');
      expect(records(text)).toEqual(
        finished.map((swap) =>
          Object.fromEntries(SWAP_CSV_FIELDS.map((field) => [field, cellOf(swap[field])])),
        ),
      );
      expect(text.endsWith('\r\n')).toBe(true);
    });

    it('writes hostile and unicode text so that a spreadsheet shows it and runs nothing', async () => {
      const org: OwnerScope = { organizationId: await newOrganization(), livemode: true };
      const references = [
        '=HYPERLINK("http://evil.example","x")',
        '+1,2',
        '@SUM(A1)',
        'Zürich 注文 ₿',
      ];
      await insertSwaps(
        db,
        references.map((ref, i) => ({
          organizationId: org.organizationId,
          createdAt: `2026-10-0${i + 1}T00:00:00Z`,
          partnerReferenceId: ref,
        })),
      );
      const text = await collect(search.exportCsv(org, {}));
      const cells = records(text).map((r) => r.partnerReferenceId);
      expect(cells).toEqual([
        'Zürich 注文 ₿',
        "'@SUM(A1)",
        "'+1,2",
        `'=HYPERLINK("http://evil.example","x")`,
      ]);
      expect(Buffer.from(text, 'utf8').toString('utf8')).toContain('Zürich 注文 ₿');
    });

    it('an export stopped early gives its connection back; too many at once are refused', async () => {
      const stopped = search.exportCsv(owner, {});
      await stopped.next();
      await stopped.next();
      await stopped.return(undefined);
      const open = await db.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
      );
      expect(open[0].n).toBe(0);

      const running = [1, 2, 3].map(() => search.exportCsv(owner, {}));
      await Promise.all(running.map((r) => r.next()));
      const refused = search.exportCsv(owner, {});
      await expect(refused.next()).rejects.toMatchObject({ code: ErrorCode.RateLimited });
      await running[0].return(undefined);
      const next = search.exportCsv(owner, {});
      await expect(next.next()).resolves.toMatchObject({ done: false });
      await Promise.all([...running.slice(1), next].map((r) => r.return(undefined)));
    });
  });

  describe('an organization with 100,000 swaps', () => {
    let owner: OwnerScope;

    beforeAll(async () => {
      owner = { organizationId: await newOrganization(), livemode: true };
      await insertManySwaps(db, owner.organizationId, 100_000, 90);
      await db.query('ANALYZE swaps');
    }, 120_000);

    /** The statement a read sent, run again under EXPLAIN ANALYZE. */
    async function planOf(read: () => Promise<unknown>): Promise<PlanNode> {
      return analyzedPlan(db, await lastStatement(appDb, read));
    }

    const deep = async (filters: SwapFilters): Promise<KeysetPageRequest> => {
      // A page far into the list: the position of the 2000th match.
      const rows = await db.query<{ at: string; id: string }[]>(
        `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at, id
           FROM swaps WHERE organization_id = $1 ${filters.status ? `AND status = '${filters.status}'` : ''}
          ORDER BY created_at DESC, id DESC OFFSET 1999 LIMIT 1`,
        [owner.organizationId],
      );
      return { limit: 50, after: rows[0] };
    };

    it.each<[string, SwapFilters]>([
      ['unfiltered', {}],
      ['by status', { status: 'finished' }],
      ['by a rare status', { status: 'hold' }],
      ['by pair', { from: 'ltc', to: 'usdtrx' }],
      ['by days', { createdFrom: '2026-01-01', createdTo: '2099-12-31' }],
      ['by status and days', { status: 'expired', createdFrom: '2026-01-01' }],
    ])('reads a page %s from an index in list order, at any depth', async (_, filters) => {
      for (const page of [{ limit: 50 }, await deep(filters)]) {
        const plan = await planOf(() => search.search(owner, filters, page));
        expect(planNodes(plan).map((n) => n['Node Type'])).not.toContain('Seq Scan');
        expect(planNodes(plan).map((n) => n['Node Type'])).not.toContain('Sort');
        expect(rowsRead(plan)).toBeLessThanOrEqual(51 * 6);
      }
    });

    it('finds by any searched field through indexes, reading only matches', async () => {
      const [row] = await db.query<{ id: string; payin_address: string }[]>(
        `SELECT id, payin_address FROM swaps WHERE organization_id = $1 OFFSET 5000 LIMIT 1`,
        [owner.organizationId],
      );
      for (const q of [row.id, row.payin_address.toUpperCase(), 'order-5000']) {
        const plan = await planOf(() => search.search(owner, { search: q }, { limit: 50 }));
        expect(planNodes(plan).map((n) => n['Node Type'])).not.toContain('Seq Scan');
        expect(rowsRead(plan)).toBeLessThanOrEqual(10);
      }
    });

    it('lists the pairs with a few probes per pair', async () => {
      const plan = await planOf(() => search.pairs(owner));
      expect(planNodes(plan).map((n) => n['Node Type'])).not.toContain('Seq Scan');
      expect(rowsRead(plan)).toBeLessThanOrEqual(20);
    });
  });

  describe('earnings', () => {
    let organizationId: string;
    let earnings: EarningsService;

    async function book(amountUsd: string, createdAt: string): Promise<string> {
      const [swapId] = await insertSwaps(db, [
        { organizationId, createdAt, status: 'finished', amountActualFrom: '1' },
      ]);
      await db.transaction((manager) =>
        moduleRef.get(EarningsRepository).bookWithin(manager, {
          organizationId,
          swapId,
          feePercent: '1',
          amountActualFrom: '1',
          from: 'btc',
          usdPrice: new Decimal(amountUsd).mul(100).toFixed(),
          amountUsd,
        }),
      );
      await db.query('UPDATE earnings_ledger SET created_at = $2 WHERE swap_id = $1', [
        swapId,
        createdAt,
      ]);
      return swapId;
    }

    beforeAll(async () => {
      organizationId = await newOrganization();
      earnings = moduleRef.get(EarningsService);
      await book('60.5', '2026-10-01T00:00:00Z');
      await book('45', '2026-10-02T00:00:00Z'); // 105.5: a payout is due
      await book('12.25', '2026-10-03T00:00:00Z');
      await book('0.000001', '2026-10-03T00:00:00Z');
    });

    it('sums accrued, payable and paid, and the way to the threshold', async () => {
      expect(await earnings.summary(organizationId)).toEqual({
        earnedUsd: '117.750001',
        accruedUsd: '12.250001',
        payableUsd: '105.5',
        paidUsd: '0',
        awaitingPrice: 0,
        thresholdUsd: '100',
        progressPercent: '12.25',
        remainingUsd: '87.749999',
      });
      await db.query(`UPDATE payouts SET status = 'paid' WHERE organization_id = $1`, [
        organizationId,
      ]);
      expect(await earnings.summary(organizationId)).toMatchObject({
        payableUsd: '0',
        paidUsd: '105.5',
      });
      const empty = await earnings.summary(await newOrganization());
      expect(empty).toMatchObject({
        accruedUsd: '0',
        progressPercent: '0.00',
        remainingUsd: '100',
      });
    });

    it('pages the ledger newest first and exports it whole', async () => {
      const first = await earnings.ledger(organizationId, { limit: 3 });
      // The two entries of one instant come in id order; both precede the older one.
      expect(
        first.items
          .map((e) => e.amountUsd)
          .slice(0, 2)
          .sort(),
      ).toEqual(['0.000001', '12.25']);
      expect(first.items[2].amountUsd).toBe('45');
      expect(first.items[0].id > first.items[1].id).toBe(true);
      expect(first.previous).toBeNull();
      expect(first.next).not.toBeNull();
      const all = [...first.items];
      const second = await earnings.ledger(organizationId, {
        limit: 3,
        after: decode(first.next ?? ''),
      });
      all.push(...second.items);
      expect(second.next).toBeNull();
      expect(all.map((e) => e.createdAt)).toEqual([
        '2026-10-03T00:00:00.000Z',
        '2026-10-03T00:00:00.000Z',
        '2026-10-02T00:00:00.000Z',
        '2026-10-01T00:00:00.000Z',
      ]);
      const text = await collect(earnings.exportLedgerCsv(organizationId));
      expect(records(text)).toEqual(all.map((e) => ({ ...e })));
      expect(await earnings.payouts(organizationId)).toEqual([
        expect.objectContaining({
          amountUsd: '105.5',
          asset: 'usdt',
          network: 'trc20',
          address: null,
        }),
      ]);
    });
  });

  describe('the payout address', () => {
    let organizationId: string;
    let sut: PayoutAddressService;
    const tron = generateAddress('tron', random);
    const ethereum = generateAddress('ethereum', random);

    beforeAll(async () => {
      organizationId = await newOrganization();
      sut = moduleRef.get(PayoutAddressService);
      await db.query(
        `INSERT INTO payouts (organization_id, amount_usd, network, address, status) VALUES
           ($1, 120, 'trc20', NULL, 'due'), ($1, 101, 'trc20', 'Tpaid', 'paid')`,
        [organizationId],
      );
    });

    async function audits(): Promise<
      { action: string; actor: string; details: Record<string, unknown> }[]
    > {
      return db.query(
        `SELECT action, actor, details FROM audit_log WHERE target_id = $1 AND action = 'payout_address.changed' ORDER BY id`,
        [organizationId],
      );
    }

    it('sets a TRC-20 address by default, redirects due payouts and writes the audit entry', async () => {
      const change = await sut.change(
        organizationId,
        { payoutAddress: `  ${tron} `, payoutNetwork: '' },
        'user:owner@example.com',
      );
      expect(change).toEqual({
        previous: { address: null, network: 'trc20' },
        current: { address: tron, network: 'trc20' },
        changed: true,
        duePayoutsRedirected: 1,
      });
      const payouts = await db.query<{ status: string; address: string }[]>(
        'SELECT status, address FROM payouts WHERE organization_id = $1 ORDER BY amount_usd DESC',
        [organizationId],
      );
      expect(payouts).toEqual([
        { status: 'due', address: tron },
        { status: 'paid', address: 'Tpaid' },
      ]);
      expect(await audits()).toEqual([
        {
          action: 'payout_address.changed',
          actor: 'user:owner@example.com',
          details: expect.objectContaining({
            address: tron,
            network: 'trc20',
            previousAddress: null,
          }),
        },
      ]);
    });

    it('switches to ERC-20; the same destination again changes nothing', async () => {
      const change = await sut.change(
        organizationId,
        { payoutAddress: ethereum, payoutNetwork: 'erc20' },
        'user:owner@example.com',
      );
      expect(change.previous).toEqual({ address: tron, network: 'trc20' });
      const again = await sut.change(
        organizationId,
        { payoutAddress: ethereum, payoutNetwork: 'erc20' },
        'user:owner@example.com',
      );
      expect(again.changed).toBe(false);
      expect(await audits()).toHaveLength(2);
      const org = await organizations.get(organizationId);
      expect([org.payoutAddress, org.payoutNetwork]).toEqual([ethereum, 'erc20']);
    });

    it.each<[string, Record<string, unknown>, ErrorCode, string]>([
      [
        'an Ethereum address on TRC-20',
        { payoutAddress: ethereum, payoutNetwork: 'trc20' },
        ErrorCode.InvalidAddress,
        'payoutAddress',
      ],
      [
        'a TRON address on ERC-20',
        { payoutAddress: tron, payoutNetwork: 'erc20' },
        ErrorCode.InvalidAddress,
        'payoutAddress',
      ],
      [
        'a broken checksum',
        { payoutAddress: altered(tron) },
        ErrorCode.InvalidAddress,
        'payoutAddress',
      ],
      ['a NUL', { payoutAddress: `${tron}\u0000` }, ErrorCode.InvalidAddress, 'payoutAddress'],
      [
        'a huge value',
        { payoutAddress: 'T'.repeat(100_000) },
        ErrorCode.InvalidAddress,
        'payoutAddress',
      ],
      [
        'inner whitespace',
        { payoutAddress: `${tron.slice(0, 5)} ${tron.slice(5)}` },
        ErrorCode.InvalidAddress,
        'payoutAddress',
      ],
      ['nothing', { payoutAddress: '' }, ErrorCode.InvalidRequest, 'payoutAddress'],
      ['a number', { payoutAddress: 42 }, ErrorCode.InvalidRequest, 'payoutAddress'],
      ['a list', { payoutAddress: [tron] }, ErrorCode.InvalidRequest, 'payoutAddress'],
      [
        'another network',
        { payoutAddress: tron, payoutNetwork: 'bep20' },
        ErrorCode.InvalidRequest,
        'payoutNetwork',
      ],
      [
        'a network list',
        { payoutAddress: tron, payoutNetwork: ['trc20'] },
        ErrorCode.InvalidRequest,
        'payoutNetwork',
      ],
    ])('refuses %s and changes nothing', async (_, input, code, param) => {
      const error = await sut
        .change(
          organizationId,
          { payoutAddress: input.payoutAddress, payoutNetwork: input.payoutNetwork },
          'user:x',
        )
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code, param });
      expect((await organizations.get(organizationId)).payoutAddress).toBe(ethereum);
    });

    it('answers not found for an organization that does not exist', async () => {
      await expect(
        sut.change(randomUUID(), { payoutAddress: tron, payoutNetwork: 'trc20' }, 'user:x'),
      ).rejects.toMatchObject({ code: ErrorCode.NotFound });
    });
  });

  describe('activity per day', () => {
    it('counts swaps and finished volume in USD per UTC day for 30 days, only the mode’s', async () => {
      const organizationId = await newOrganization();
      const owner: OwnerScope = { organizationId, livemode: true };
      const now = new Date('2026-11-20T12:00:00Z');
      const [priced] = await insertSwaps(db, [
        {
          organizationId,
          createdAt: '2026-11-20T00:00:00Z',
          status: 'finished',
          amountActualFrom: '0.5',
        },
      ]);
      await insertSwaps(db, [
        { organizationId, createdAt: '2026-11-20T23:59:59Z', status: 'waiting' },
        {
          organizationId,
          createdAt: '2026-11-17T08:00:00Z',
          status: 'finished',
          amountActualFrom: '2',
        },
        { organizationId, createdAt: '2026-10-22T00:00:00Z', status: 'failed' },
        { organizationId, createdAt: '2026-10-21T23:59:59Z', status: 'finished' },
        { organizationId, createdAt: '2026-11-20T01:00:00Z', livemode: false, status: 'finished' },
      ]);
      await db.transaction((manager) =>
        moduleRef.get(EarningsRepository).bookWithin(manager, {
          organizationId,
          swapId: priced,
          feePercent: '1',
          amountActualFrom: '0.5',
          from: 'btc',
          usdPrice: '64000.123',
          amountUsd: '320.000615',
        }),
      );

      const sut = await moduleRef.get(ActivityService).lastDays(owner, 30, now);

      expect(sut.days).toHaveLength(30);
      expect(sut.days[0]).toEqual({
        day: '2026-10-22',
        swaps: 1,
        finished: 0,
        volumeUsd: '0.00',
        unpricedFinished: 0,
      });
      expect(sut.days[26]).toEqual({
        day: '2026-11-17',
        swaps: 1,
        finished: 1,
        volumeUsd: '0.00',
        unpricedFinished: 1,
      });
      expect(sut.days[29]).toEqual({
        day: '2026-11-20',
        swaps: 2,
        finished: 1,
        volumeUsd: '32000.06',
        unpricedFinished: 0,
      });
      expect(sut.totals).toEqual({
        swaps: 4,
        finished: 2,
        volumeUsd: '32000.06',
        unpricedFinished: 1,
      });
      const test = await moduleRef
        .get(ActivityService)
        .lastDays({ ...owner, livemode: false }, 30, now);
      expect(test.totals).toEqual({
        swaps: 1,
        finished: 1,
        volumeUsd: '0.00',
        unpricedFinished: 1,
      });
    });
  });

  describe('a swap’s events and their webhook deliveries', () => {
    it('shows each delivery of the swap’s events with its latest attempt, to its owner only', async () => {
      const organizationId = await newOrganization();
      const owner: OwnerScope = { organizationId, livemode: true };
      await db.query(
        `INSERT INTO webhook_endpoints (id, organization_id, livemode, url, events, secret_ciphertext)
         VALUES ('we_0000000000000000000000d1', $1, true, 'https://hooks.example.com/a',
                 '{swap.created,swap.status_changed}', 'x'),
                ('we_0000000000000000000000d2', $1, false, 'https://hooks.example.com/test',
                 '{swap.created}', 'x')`,
        [organizationId],
      );
      const [id] = await insertSwaps(db, [{ organizationId, createdAt: '2026-11-01T00:00:00Z' }]);
      const stored = await moduleRef.get(SwapsRepository).findByIdForOrg(id, owner);
      if (!stored) {
        throw new Error('swap not stored');
      }
      const swap = toSwapView(stored);
      const recorder = moduleRef.get(EventRecorder);
      await db.transaction((manager) => recorder.swapCreated(manager, organizationId, swap));
      await db.transaction((manager) =>
        recorder.swapStatusChanged(
          manager,
          organizationId,
          { ...swap, status: 'confirming' },
          'waiting',
        ),
      );
      const deliveries = moduleRef.get(WebhookDeliveryClaims);
      const deliveryHistory = moduleRef.get(WebhookDeliveryHistory);
      const now = new Date();
      const [claimed] = await deliveries.claimDue('test-poller', now, 1, 60_000, ENDPOINT_FAIRNESS);
      await deliveries.recordAttempt('test-poller', claimed, now, {
        status: 'pending',
        nextAttemptAt: new Date(now.getTime() + 60_000),
        httpStatus: 500,
        error: null,
        durationMs: 12,
      });

      const history = await moduleRef.get(EventsRepository).listForSwap(id, owner);
      expect(history.map((e) => [e.type, e.data.swap.status])).toEqual([
        ['swap.created', 'waiting'],
        ['swap.status_changed', 'confirming'],
      ]);
      const sut = await deliveryHistory.listForSwap(id, owner);
      expect(sut).toEqual([
        expect.objectContaining({
          eventId: history[0].id,
          eventType: 'swap.created',
          endpointId: 'we_0000000000000000000000d1',
          url: 'https://hooks.example.com/a',
          status: 'pending',
          attempts: 1,
          lastHttpStatus: 500,
          lastError: null,
          nextAttemptAt: expect.stringMatching(/Z$/),
        }),
        expect.objectContaining({
          eventId: history[1].id,
          eventType: 'swap.status_changed',
          attempts: 0,
          lastAttemptAt: null,
        }),
      ]);
      const stranger = { organizationId: await newOrganization(), livemode: true };
      expect(await deliveryHistory.listForSwap(id, stranger)).toEqual([]);
      expect(await deliveryHistory.listForSwap(id, { ...owner, livemode: false })).toEqual([]);
    });
  });
});

/** Rows the plan read from `swaps` (kept or filtered away), over every loop. */
function rowsRead(plan: PlanNode): number {
  return planNodes(plan)
    .filter((n) => n['Relation Name'] === 'swaps' || n['Node Type'].startsWith('Bitmap Index'))
    .filter((n) => n['Node Type'] !== 'Bitmap Index Scan')
    .reduce(
      (sum, n) =>
        sum +
        (n['Actual Rows'] +
          (n['Rows Removed by Filter'] ?? 0) +
          (n['Rows Removed by Index Recheck'] ?? 0)) *
          n['Actual Loops'],
      0,
    );
}
