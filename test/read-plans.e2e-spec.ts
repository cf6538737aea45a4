import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import fc from 'fast-check';
import pg from 'pg';
import { Test, type TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { CoreModule } from '#app/core';
import type { OwnerScope } from '#app/domain';
import { EventsModule, EventsRepository, type EventType } from '#app/events';
import {
  CURSOR_TRANSACTION,
  CursorReads,
  cursorDeclaration,
  EntityColumns,
  SwapEntity,
} from '#app/persistence';
import {
  SWAP_VIEW_FIELDS,
  SwapQueryService,
  SwapSearchModule,
  SwapSearchService,
  SwapsDataModule,
  SwapViewsRepository,
  type SwapFilters,
  type SwapViewRow,
} from '#app/swaps';
import { insertManySwaps } from './factories/swaps.js';
import { TEST_ENCRYPTION_KEY } from './support/api.js';
import {
  openTestDataSource,
  testDatabaseUrl,
  testRedisPrefix,
  testRedisUrl,
} from './support/database.js';
import { analyzedPlan, lastStatement, planNodes, type PlanNode } from './support/plans.js';

/** The organization paged through, and everyone else's swaps around it. */
const OWN_SWAPS = 20_000;
const OTHER_SWAPS = 60_000;
/** Swaps sharing one reference, and swaps sharing one creation time with another. */
const SHARED_REFERENCE = 'shared-ref';
const REFERENCED = 300;
const TIED = 40;
/** The owner's events: many of one type, few of the other. */
const COMMON_EVENTS = 30_000;
const RARE_EVENTS = 60;

/** Rows a plan took from `relation` or its indexes, kept or filtered away, over every loop. */
function rowsRead(plan: PlanNode, relation: string): number {
  return planNodes(plan)
    .filter((n) => n['Relation Name'] === relation)
    .reduce(
      (sum, n) => sum + (n['Actual Rows'] + (n['Rows Removed by Filter'] ?? 0)) * n['Actual Loops'],
      0,
    );
}

/**
 * Reads that must cost the same on a large table, on real Postgres with a tenant among others:
 * `GET /v1/swaps`'s page by `offset` (a deferred join, the skipped rows counted in an index) is
 * exactly the plain `LIMIT … OFFSET` page at every offset and costs index entries rather than
 * rows however deep; a page after a swap (`startingAfter`) is the rest of the list after it; the
 * event feed and the dashboard's event pages read only the rows of the type asked for; and every
 * export's cursor is planned as an index scan in the list's order, never a scan and sort.
 */
describe('Reads on large tables', () => {
  let moduleRef: TestingModule;
  let db: DataSource;
  let appDb: DataSource;
  let views: SwapViewsRepository;
  let queries: SwapQueryService;
  let events: EventsRepository;
  let search: SwapSearchService;
  let owner: OwnerScope;
  let plainSelect: string;

  /** The list as a plain statement reads it: every row of the org and mode, in list order. */
  async function plainPage(
    filters: SwapFilters,
    limit: number | null,
    offset: number,
  ): Promise<SwapViewRow[]> {
    const byReference = filters.partnerReferenceId !== undefined;
    return db.query<SwapViewRow[]>(
      `SELECT ${plainSelect} FROM swaps s
        WHERE s.organization_id = $1 AND s.livemode = $2
          ${byReference ? 'AND s.partner_reference_id = $5' : ''}
        ORDER BY s.created_at DESC, s.id DESC LIMIT $3 OFFSET $4`,
      [
        owner.organizationId,
        owner.livemode,
        limit,
        offset,
        ...(byReference ? [filters.partnerReferenceId] : []),
      ],
    );
  }

  async function newOrganization(): Promise<string> {
    const [{ id }] = await db.query<{ id: string }[]>(
      `INSERT INTO organizations (name, fee_percent, status, provider_activated)
       VALUES ($1, 0, 'active', true) RETURNING id`,
      [`Pages org ${randomUUID()}`],
    );
    return id;
  }

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [
        CoreModule.forRoot({
          database: { url: testDatabaseUrl(), timeoutMs: 5000 },
          redis: { url: testRedisUrl(), keyPrefix: testRedisPrefix() },
          credentials: { encryptionKey: Buffer.from(TEST_ENCRYPTION_KEY, 'base64') },
        }),
        SwapsDataModule,
        SwapSearchModule,
        EventsModule,
      ],
      providers: [SwapQueryService],
    }).compile();
    db = await openTestDataSource();
    appDb = moduleRef.get(DataSource);
    views = moduleRef.get(SwapViewsRepository);
    queries = moduleRef.get(SwapQueryService);
    events = moduleRef.get(EventsRepository);
    search = moduleRef.get(SwapSearchService);
    plainSelect = new EntityColumns(db, SwapEntity).select('s', SWAP_VIEW_FIELDS, { iso: true });

    owner = { organizationId: await newOrganization(), livemode: true };
    await insertManySwaps(db, owner.organizationId, OWN_SWAPS, 90);
    for (let i = 0; i < 3; i += 1) {
      await insertManySwaps(db, await newOrganization(), OTHER_SWAPS / 3, 90);
    }
    // The owner's test swaps and a run of swaps that share a reference.
    await db.query(
      `INSERT INTO swaps (provider, id, organization_id, livemode, status, mode, from_ticker, to_ticker,
         amount_from, payin_address, payout_address, partner_reference_id, created_at)
       SELECT 'changelly', substr(md5('test' || n), 1, 16), $1, n % 2 = 0, 'waiting', 'float', 'btc', 'eth',
              0.1, 'payin-t' || n, 'payout-t' || n, $2, now() - n * interval '1 hour'
         FROM generate_series(1, $3) AS n`,
      [owner.organizationId, SHARED_REFERENCE, REFERENCED * 2],
    );
    // Swaps created in the same microsecond as another: only the id orders them.
    await db.query(
      `INSERT INTO swaps (provider, id, organization_id, livemode, status, mode, from_ticker, to_ticker,
         amount_from, payin_address, payout_address, created_at)
       SELECT 'changelly', substr(md5('tie' || n), 1, 16), $1, true, 'waiting', 'float', 'btc', 'eth', 0.1,
              'payin-tie' || n, 'payout-tie' || n, (SELECT created_at FROM swaps
                WHERE organization_id = $1 ORDER BY created_at DESC OFFSET 777 LIMIT 1)
         FROM generate_series(1, $2) AS n`,
      [owner.organizationId, TIED],
    );
    // The owner's events, the rare type spread among the common one, in transactions apart.
    for (const [type, count] of [
      ['swap.status_changed', COMMON_EVENTS / 2],
      ['swap.created', RARE_EVENTS],
      ['swap.status_changed', COMMON_EVENTS / 2],
    ] as const) {
      await db.query(
        `INSERT INTO events (id, organization_id, livemode, type, data)
         SELECT 'evt_' || substr(md5(random()::text || n), 1, 24), $1, true, $2, '{}'
           FROM generate_series(1, $3) AS n`,
        [owner.organizationId, type, count],
      );
    }
    // As autovacuum leaves tables that stopped growing: statistics, and a visibility map that
    // lets a scan of an index skip the table.
    await db.query('VACUUM ANALYZE swaps, events');
  }, 180_000);

  afterAll(async () => {
    await db.destroy();
    await moduleRef.close();
  });

  const total = OWN_SWAPS + REFERENCED + TIED;

  it('reads the plain LIMIT … OFFSET page at every offset tried, filtered or not', async () => {
    const [{ count }] = await db.query<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM swaps WHERE organization_id = $1 AND livemode`,
      [owner.organizationId],
    );
    expect(count).toBe(total);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.integer({ min: 1, max: total + 100 }),
          fc.integer({ min: 760, max: 800 }),
          fc.constantFrom(total - 1, total, REFERENCED - 1),
        ),
        fc.integer({ min: 1, max: 200 }),
        fc.constantFrom<SwapFilters>({}, { partnerReferenceId: SHARED_REFERENCE }),
        async (offset, limit, filters) => {
          const page = await views.listViewsAtOffset(owner, filters, limit, offset);
          expect(page).toEqual(await plainPage(filters, limit, offset));
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);

  it('reads a page after any swap: the rest of the list after it, filtered or not', async () => {
    const everyId = (await plainPage({}, null, 0)).map((row) => row.id);
    const referenced = (await plainPage({ partnerReferenceId: SHARED_REFERENCE }, null, 0)).map(
      (row) => row.id,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: everyId.length - 1 }),
        fc.integer({ min: 1, max: 200 }),
        fc.boolean(),
        async (at, limit, byReference) => {
          const anchor = everyId[at];
          const filters = byReference ? { partnerReferenceId: SHARED_REFERENCE } : {};
          const page = await queries.list(owner, {
            limit,
            startingAfter: anchor,
            ...filters,
          });
          const rest = byReference
            ? (await plainPage(filters, null, 0)).filter((row) => everyId.indexOf(row.id) > at)
            : await plainPage(filters, limit, at + 1);
          expect(page.map((s) => s.id)).toEqual(rest.slice(0, limit).map((row) => row.id));
          expect(referenced.length).toBe(REFERENCED);
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);

  it('answers a deep page from the index alone, reading only the page’s rows', async () => {
    for (const [filters, offset] of [
      [{}, total - 50],
      [{ partnerReferenceId: SHARED_REFERENCE }, REFERENCED - 50],
    ] as const) {
      const plan = await analyzedPlan(
        db,
        await lastStatement(appDb, () => views.listViewsAtOffset(owner, filters, 50, offset)),
      );
      const nodes = planNodes(plan);
      expect(nodes.map((n) => n['Node Type'])).not.toContain('Seq Scan');
      const skipping = nodes.find((n) => n['Node Type'] === 'Index Only Scan');
      expect(skipping).toBeDefined();
      // The skipped entries come from the index; the visibility map spares the table.
      expect(skipping?.['Heap Fetches']).toBeLessThanOrEqual(50);
      const rowReads = nodes
        .filter((n) => n['Node Type'] === 'Index Scan' && n['Relation Name'] === 'swaps')
        .reduce((sum, n) => sum + n['Actual Rows'] * n['Actual Loops'], 0);
      expect(rowReads).toBe(50);
    }
  });

  it('refuses startingAfter with offset, and an id that is not one of the owner’s swaps', async () => {
    const [theirs] = await db.query<{ id: string }[]>(
      `SELECT id FROM swaps WHERE organization_id <> $1 LIMIT 1`,
      [owner.organizationId],
    );
    const [ownTest] = await db.query<{ id: string }[]>(
      `SELECT id FROM swaps WHERE organization_id = $1 AND NOT livemode LIMIT 1`,
      [owner.organizationId],
    );
    const [mine] = await plainPage({}, 1, 0);
    await expect(
      queries.list(owner, { limit: 10, offset: 0, startingAfter: mine.id }),
    ).rejects.toMatchObject({ code: 'invalid_request', param: 'startingAfter' });
    for (const id of [theirs.id, ownTest.id, '0123456789abcdef', 'not-an-id']) {
      await expect(queries.list(owner, { limit: 10, startingAfter: id })).rejects.toMatchObject({
        code: 'invalid_request',
        param: 'startingAfter',
      });
    }
  });

  it('reads only the events of the type asked for, in the feed and on the dashboard', async () => {
    const cursor = await db.query<{ xid: string; seq: string }[]>(
      `SELECT xid::text AS xid, seq::text AS seq FROM events
        WHERE organization_id = $1 ORDER BY xid, seq OFFSET 100 LIMIT 1`,
      [owner.organizationId],
    );
    const reads: [string, () => Promise<unknown>][] = [];
    for (const type of ['swap.created', 'swap.status_changed'] satisfies EventType[]) {
      reads.push(
        [`feed of ${type}`, () => events.feed(owner, { after: null, limit: 50, type })],
        [`feed of ${type} after`, () => events.feed(owner, { after: cursor[0], limit: 50, type })],
        [`newest ${type}`, () => events.browse(owner, { limit: 50, type })],
        [`older ${type}`, () => events.browse(owner, { before: cursor[0], limit: 50, type })],
        [`newer ${type}`, () => events.browse(owner, { after: cursor[0], limit: 50, type })],
      );
    }
    for (const [name, read] of reads) {
      const plan = await analyzedPlan(db, await lastStatement(appDb, read));
      const types = planNodes(plan).map((n) => n['Node Type']);
      expect({ name, types }).toEqual({ name, types: expect.not.arrayContaining(['Seq Scan']) });
      // A page's rows and the one that says more follow, nothing filtered away.
      expect({ name, withinPage: rowsRead(plan, 'events') <= 51 }).toEqual({
        name,
        withinPage: true,
      });
    }
  });

  it('plans every export’s cursor as an index scan in list order, never a scan and a sort', async () => {
    const batches = jest.spyOn(CursorReads.prototype, 'batches');
    const client = new pg.Client({ connectionString: testDatabaseUrl() });
    await client.connect();
    try {
      for (const filters of [
        {},
        { status: 'finished' },
        { status: 'hold' },
        { from: 'ltc', to: 'usdtrx' },
        { createdFrom: '2026-01-01' },
        { search: SHARED_REFERENCE },
      ] satisfies SwapFilters[]) {
        const chunks = search.exportCsv(owner, filters);
        await chunks.next();
        await chunks.next();
        await chunks.return();
        const [text, values] = batches.mock.calls.at(-1) ?? [];
        for (const statement of CURSOR_TRANSACTION) {
          await client.query(statement);
        }
        const { rows } = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
          `EXPLAIN (FORMAT JSON) ${cursorDeclaration(String(text))}`,
          values,
        );
        await client.query('ROLLBACK');
        const types = planNodes(rows[0]['QUERY PLAN'][0].Plan).map((n) => n['Node Type']);
        // A search matches a few rows through a bitmap of four indexes, then sorts them.
        const refused = filters.search === undefined ? ['Seq Scan', 'Sort'] : ['Seq Scan'];
        for (const node of refused) {
          expect({ filters, types }).toEqual({
            filters,
            types: expect.not.arrayContaining([node]),
          });
        }
      }
    } finally {
      batches.mockRestore();
      await client.end();
    }
  });
});
