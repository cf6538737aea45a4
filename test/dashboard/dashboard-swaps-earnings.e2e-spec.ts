import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { generateAddress } from '#app/chains';
import { SWAP_CSV_FIELDS } from '#app/swaps';
import { insertSwaps } from '../factories/swaps.js';
import { parseCsv } from '../support/csv.js';
import { createDashboardUser, type DashboardClient, signedInClient } from '../support/dashboard.js';
import { type Harness, startHarness } from '../support/harness.js';
import { createOrganization } from '../factories/partners.js';

const random = (n: number): Uint8Array => randomBytes(n);

/** Text no page, form or export may choke on (the project's hostile-input rules). */
const HOSTILE = [
  'a\u0000b',
  'x'.repeat(100_000),
  '\u202Eevil',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '=HYPERLINK("x")',
  '😀'.repeat(50),
  '%00',
  '../../etc/passwd',
  '2026-02-30',
  '-1',
  'status',
];
/** The same, as query strings; plus bytes that are not UTF-8 (a lone surrogate's encoding). */
const HOSTILE_QUERY = [...HOSTILE.map(encodeURIComponent), '%ED%A0%80', '%FF%FE', '%'];

describe('Dashboard: overview, swaps and earnings over HTTP', () => {
  let harness: Harness;
  let db: DataSource;
  let orgA: string;
  let orgB: string;
  let owner: DashboardClient;
  let ownerPassword: string;
  let ownerEmail: string;
  let otherOwnerEmail: string;
  let developer: DashboardClient;
  let viewer: DashboardClient;
  let stranger: DashboardClient;
  let liveIds: string[];
  let testId: string;
  let foreignId: string;
  const foreignPayout = `foreign-payout-${randomBytes(6).toString('hex')}`;

  beforeAll(async () => {
    harness = await startHarness({ smtp: true });
    db = harness.db;
    orgA = await createOrganization(harness.api.app, { name: 'Alpha Wallet' });
    orgB = await createOrganization(harness.api.app, { name: 'Beta Wallet' });
    const signedOwner = await signedInClient(harness.api, orgA, 'owner');
    owner = signedOwner.client;
    ownerPassword = signedOwner.password;
    ownerEmail = signedOwner.email;
    otherOwnerEmail = (await createDashboardUser(harness.api, orgA, 'owner')).email;
    developer = (await signedInClient(harness.api, orgA, 'developer')).client;
    viewer = (await signedInClient(harness.api, orgA, 'viewer')).client;
    stranger = (await signedInClient(harness.api, orgB, 'owner')).client;
    liveIds = await insertSwaps(
      db,
      Array.from({ length: 60 }, (_, i) => ({
        organizationId: orgA,
        createdAt: new Date(Date.now() - i * 3_600_000).toISOString(),
        status: i % 2 === 0 ? ('finished' as const) : ('waiting' as const),
        amountActualFrom: i % 2 === 0 ? '0.1' : null,
        partnerReferenceId: i === 3 ? '=cmd|" /C calc"!A0' : `order-${i}`,
      })),
    );
    [testId] = await insertSwaps(db, [
      { organizationId: orgA, livemode: false, createdAt: new Date().toISOString() },
    ]);
    [foreignId] = await insertSwaps(db, [
      { organizationId: orgB, createdAt: new Date().toISOString(), payoutAddress: foreignPayout },
    ]);
  });

  afterAll(async () => {
    await harness.close();
  });

  describe('Swaps', () => {
    it('lists the organization’s swaps of the session’s mode, 50 to a page', async () => {
      const res = await owner.get('/partner/swaps');
      expect(res.status).toBe(200);
      expect(res.text).toContain(liveIds[0]);
      expect(res.text).toContain(liveIds[49]);
      expect(res.text).not.toContain(liveIds[50]);
      expect(res.text).not.toContain(testId);
      expect(res.text).not.toContain(foreignId);
      const next = /<a href="([^"]+)" rel="next">Next<\/a>/.exec(res.text)?.[1] ?? '';
      const second = await owner.get(next.replaceAll('&amp;', '&'));
      expect(second.text).toContain(liveIds[50]);
      expect(second.text).not.toContain(liveIds[49]);
      expect(second.text).toMatch(/rel="prev">Previous<\/a>/);
    });

    it('filters by status and finds by reference', async () => {
      const finished = await owner.get('/partner/swaps?status=finished');
      expect(finished.text).toContain(liveIds[0]);
      expect(finished.text).not.toContain(liveIds[1]);
      const found = await owner.get('/partner/swaps?q=order-7');
      expect(found.text).toContain(liveIds[7]);
      expect(found.text).not.toContain(liveIds[8]);
    });

    it('shows test swaps only in test mode', async () => {
      const client = (await signedInClient(harness.api, orgA, 'developer')).client;
      await client.get('/partner');
      expect(
        (await client.post('/partner/mode', { mode: 'test', next: '/partner/swaps' })).status,
      ).toBe(303);
      const res = await client.get('/partner/swaps');
      expect(res.text).toContain(testId);
      expect(res.text).not.toContain(liveIds[0]);
      expect((await client.get(`/partner/swaps/${liveIds[0]}`)).status).toBe(404);
      expect((await client.get(`/partner/swaps/${testId}`)).status).toBe(200);
      const exported = parseCsv((await client.get('/partner/swaps/export')).text);
      expect(exported.slice(1).map((row) => row[0])).toEqual([testId]);
      const overview = (await client.get('/partner')).text;
      expect(overview).toMatch(/aria-label="Swaps per day over the last 30 days: 1 swap in total/);
    });

    it('exports the filtered swaps as a CSV download', async () => {
      const res = await viewer.get('/partner/swaps/export?status=finished');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(
        /^attachment; filename="swaps-live-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const [header, ...rows] = parseCsv(res.text);
      expect(header).toEqual(SWAP_CSV_FIELDS);
      expect(rows).toHaveLength(30);
      expect(new Set(rows.map((r) => r[header.indexOf('status')]))).toEqual(new Set(['finished']));
      const reference = rows.find((r) => r[0] === liveIds[2])?.[
        header.indexOf('partnerReferenceId')
      ];
      expect(reference).toBe('order-2');
      const formula = parseCsv((await viewer.get(`/partner/swaps/export?q=${liveIds[3]}`)).text)[1];
      expect(formula[header.indexOf('partnerReferenceId')]).toBe(`'=cmd|" /C calc"!A0`);
    });

    it('shows a swap with its fields, events and deliveries', async () => {
      const res = await developer.get(`/partner/swaps/${liveIds[0]}`);
      expect(res.status).toBe(200);
      for (const heading of ['Fields', 'Event history', 'Webhook deliveries']) {
        expect(res.text).toContain(heading);
      }
      expect(res.text).toContain('payoutAddress');
    });

    it('never shows another organization’s swap, by id, search or export', async () => {
      const byId = await owner.get(`/partner/swaps/${foreignId}`);
      expect(byId.status).toBe(404);
      expect(byId.text).not.toContain(foreignPayout);
      // A search shows what was searched for in its box, and no swap.
      for (const q of [foreignId, foreignPayout]) {
        const res = await owner.get(`/partner/swaps?q=${q}`);
        expect(res.status).toBe(200);
        expect(res.text).not.toContain(`/partner/swaps/${foreignId}`);
        expect(res.text).toContain('No swap matches these filters.');
        const csv = await owner.get(`/partner/swaps/export?q=${q}`);
        expect(parseCsv(csv.text)).toEqual([SWAP_CSV_FIELDS]);
      }
      const all = await owner.get(`/partner/swaps?organizationId=${orgB}`);
      expect(all.text).not.toContain(foreignId);
      const exported = await owner.get(`/partner/swaps/export?organizationId=${orgB}`);
      expect(exported.text).not.toContain(foreignId);
      expect(exported.text).not.toContain(foreignPayout);
      // And the other way round: the stranger sees none of ours.
      expect((await stranger.get(`/partner/swaps/${liveIds[0]}`)).status).toBe(404);
      expect((await stranger.get('/partner/swaps')).text).not.toContain(liveIds[0]);
    });

    it('answers hostile filters, ids and page tokens without a server error', async () => {
      const params = [
        'status',
        'pair',
        'from',
        'to',
        'createdFrom',
        'createdTo',
        'q',
        'after',
        'before',
      ];
      for (const value of HOSTILE_QUERY) {
        for (const param of params) {
          const query = `${param}=${value}`;
          for (const path of [`/partner/swaps?${query}`, `/partner/swaps/export?${query}`]) {
            const res = await owner.get(path);
            expect([200, 400, 414, 431]).toContain(res.status);
          }
        }
        const swap = await owner.get(`/partner/swaps/${value.slice(0, 2000)}`);
        expect([400, 404, 414]).toContain(swap.status);
      }
      for (const query of ['status=a&status=b', 'status[x]=1', 'q[]=1', 'pair=btc:eth&pair=x:y']) {
        expect((await owner.get(`/partner/swaps?${query}`)).status).toBe(200);
      }
    });
  });

  describe('Earnings', () => {
    const tron = generateAddress('tron', random);

    it('shows the figures, the progress and the payout form to owners only', async () => {
      const mine = await owner.get('/partner/earnings');
      expect(mine.status).toBe(200);
      for (const text of [
        'Accrued',
        'Payable',
        'Paid',
        'Progress to the 100 USD payout threshold',
      ]) {
        expect(mine.text).toContain(text);
      }
      expect(mine.text).toContain('Save payout address');
      for (const client of [developer, viewer]) {
        const page = await client.get('/partner/earnings');
        expect(page.status).toBe(200);
        expect(page.text).not.toContain('Save payout address');
      }
    });

    it('refuses the payout change to developers and viewers, whatever they send', async () => {
      for (const client of [developer, viewer]) {
        await client.get('/partner/earnings');
        const res = await client.post('/partner/earnings/payout-address', {
          payoutAddress: tron,
          payoutNetwork: 'trc20',
          confirmPassword: 'whatever-it-is',
        });
        expect(res.status).toBe(403);
      }
      const org = await db.query<{ payout_address: string | null }[]>(
        'SELECT payout_address FROM organizations WHERE id = $1',
        [orgA],
      );
      expect(org[0].payout_address).toBeNull();
    });

    it('refuses a change without the CSRF token or from another origin', async () => {
      await owner.get('/partner/earnings');
      const fields = {
        payoutAddress: tron,
        payoutNetwork: 'trc20',
        confirmPassword: ownerPassword,
      };
      expect(
        (await owner.post('/partner/earnings/payout-address', fields, { csrf: null })).status,
      ).toBe(403);
      expect(
        (
          await owner.post('/partner/earnings/payout-address', fields, {
            origin: 'https://evil.example',
          })
        ).status,
      ).toBe(403);
    });

    it('asks for the password, checks the address strictly, then saves, audits and tells the owners', async () => {
      await owner.get('/partner/earnings');
      const wrong = await owner.post('/partner/earnings/payout-address', {
        payoutAddress: tron,
        payoutNetwork: 'trc20',
        confirmPassword: 'not-the-password-at-all',
      });
      expect(wrong.status).toBe(400);
      const invalid = await owner.post('/partner/earnings/payout-address', {
        payoutAddress: generateAddress('ethereum', random),
        payoutNetwork: 'trc20',
        confirmPassword: ownerPassword,
      });
      expect(invalid.status).toBe(400);
      expect(invalid.text).toContain('not a valid USDT TRC-20 (TRON) address');
      const saved = await owner.post('/partner/earnings/payout-address', {
        payoutAddress: tron,
        payoutNetwork: 'trc20',
        confirmPassword: ownerPassword,
        organizationId: orgB,
      });
      expect(saved.status).toBe(303);
      const page = await owner.get('/partner/earnings');
      expect(page.text).toContain(tron);
      const orgs = await db.query<{ id: string; payout_address: string | null }[]>(
        'SELECT id, payout_address FROM organizations WHERE id = ANY($1)',
        [[orgA, orgB]],
      );
      expect(Object.fromEntries(orgs.map((o) => [o.id, o.payout_address]))).toEqual({
        [orgA]: tron,
        [orgB]: null,
      });
      const audit = await db.query<{ actor: string }[]>(
        `SELECT actor FROM audit_log WHERE action = 'payout_address.changed' AND target_id = $1`,
        [orgA],
      );
      expect(audit).toEqual([{ actor: expect.stringContaining(ownerEmail) }]);
      for (const to of [ownerEmail, otherOwnerEmail]) {
        const mail = await harness.smtp.waitFor(to, /payout address/i);
        expect(mail.text).toContain(tron);
      }
    });

    it('answers hostile payout fields and ledger tokens without a server error', async () => {
      for (const value of HOSTILE) {
        await owner.get('/partner/earnings');
        for (const field of ['payoutAddress', 'payoutNetwork', 'confirmPassword']) {
          const res = await owner.post('/partner/earnings/payout-address', {
            payoutAddress: tron,
            payoutNetwork: 'trc20',
            confirmPassword: ownerPassword,
            [field]: value,
          });
          expect(res.status).toBeLessThan(500);
        }
      }
      for (const value of HOSTILE_QUERY) {
        for (const param of ['after', 'before']) {
          const res = await owner.get(`/partner/earnings?${param}=${value}`);
          expect([200, 400, 414, 431]).toContain(res.status);
        }
      }
    });

    it('shows and exports only the organization’s own earnings, whatever ids are sent', async () => {
      // The other organization earned a fee no page of ours may show.
      await db.query(
        `INSERT INTO earnings_ledger (organization_id, swap_id, fee_percent, amount_actual_from,
           from_ticker, usd_price, amount_usd)
         VALUES ($1, $2, 1, 7.777, 'btc', 1, 0.07777)`,
        [orgB, foreignId],
      );
      const [entry] = await db.query<{ id: string; created_at: Date }[]>(
        'SELECT id, created_at FROM earnings_ledger WHERE swap_id = $1',
        [foreignId],
      );
      const token = Buffer.from(
        `${entry.created_at.toISOString().replace('Z', '000Z')}|${entry.id}`,
      ).toString('base64url');
      for (const path of [
        `/partner/earnings?organizationId=${orgB}`,
        `/partner/earnings?before=${token}`,
        `/partner/earnings?after=${token}`,
        `/partner/earnings/export?organizationId=${orgB}`,
        `/partner?organizationId=${orgB}`,
      ]) {
        const res = await owner.get(path);
        expect(res.status).toBe(200);
        expect(res.text).not.toContain('7.777');
        expect(res.text).not.toContain(foreignId);
      }
      expect((await stranger.get('/partner/earnings/export')).text).toContain(foreignId);
    });

    it('exports the ledger as CSV', async () => {
      const res = await viewer.get('/partner/earnings/export');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(parseCsv(res.text)[0]).toEqual([
        'id',
        'swapId',
        'from',
        'amountActualFrom',
        'usdPrice',
        'feePercent',
        'amountUsd',
        'createdAt',
      ]);
    });
  });

  describe('Overview', () => {
    it('charts 30 days as an image with a table, with earnings and status', async () => {
      const res = await viewer.get('/partner');
      expect(res.status).toBe(200);
      expect(res.text).toContain('Last 30 days');
      expect(res.text).toMatch(
        /<svg[^>]*role="img"[^>]*aria-label="Swaps per day over the last 30 days: 60 swaps in total/,
      );
      expect((res.text.match(/<th scope="row">\d{4}-\d{2}-\d{2}<\/th>/g) ?? []).length).toBe(30);
      expect(res.text).toContain('Progress to the 100 USD payout threshold');
    });

    it('tells a pending organization to use test mode, and an unactivated one about the 503', async () => {
      const pending = await createOrganization(harness.api.app, { status: 'pending_review' });
      const waiting = await createOrganization(harness.api.app, { providerActivated: false });
      const inReview = (await signedInClient(harness.api, pending, 'owner')).client;
      const notActivated = (await signedInClient(harness.api, waiting, 'owner')).client;
      expect((await inReview.get('/partner')).text).toMatch(/use test mode meanwhile/i);
      const page = (await notActivated.get('/partner')).text;
      expect(page).toContain('503');
      expect(page).toContain('provider_credential_pending');
    });
  });
});
