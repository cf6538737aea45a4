import type { DataSource } from 'typeorm';
import { checkedRows } from '#app/persistence';
import { openTestDataSource } from './support/database.js';

/** Plain queries' rows are checked as they are read, against Postgres' own answers. */
describe('Checked rows', () => {
  let db: DataSource;

  beforeAll(async () => {
    db = await openTestDataSource();
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('answers the rows typed when every column holds what its shape says', async () => {
    const rows = await checkedRows(
      db,
      { n: 'number', s: 'string', at: 'date', maybe: 'string?', state: ['pending', 'failed'] },
      `SELECT 1::int AS n, 'x' AS s, now() AS at, NULL::text AS maybe, 'failed' AS state`,
    );
    expect(rows).toEqual([
      { n: 1, s: 'x', at: expect.any(Date) as unknown, maybe: null, state: 'failed' },
    ]);
  });

  it.each([
    [
      'a bigint, which pg reads as text',
      `SELECT 1::bigint AS n`,
      { n: 'number' },
      'column n holds string',
    ],
    ['a null where none may be', `SELECT NULL::int AS n`, { n: 'number' }, 'column n holds null'],
    ['an alias renamed', `SELECT 1::int AS count`, { n: 'number' }, 'column n holds undefined'],
    ['a word outside the list', `SELECT 'lost' AS state`, { state: ['pending'] }, 'column state'],
  ] as const)('refuses %s, naming the column and no value', async (_case, sql, shape, message) => {
    await expect(checkedRows(db, shape, sql)).rejects.toThrow(message);
  });
});
