import { encodeKeyset } from '#app/persistence';
import { parseSwapQuery, swapFiltersQuery } from './swap-filters.js';

describe(parseSwapQuery.name, () => {
  it('reads every filter and the page position', () => {
    const after = encodeKeyset({ at: '2026-11-01T10:00:00.123456Z', id: '0123456789abcdef' });
    const sut = parseSwapQuery({
      status: 'finished',
      pair: 'BTC:eth',
      createdFrom: '2026-10-01',
      createdTo: '2026-10-31',
      q: '  0xAbC  ',
      after,
    });
    expect(sut.errors).toEqual([]);
    expect(sut.filters).toEqual({
      status: 'finished',
      from: 'btc',
      to: 'eth',
      createdFrom: '2026-10-01',
      createdTo: '2026-10-31',
      search: '0xAbC',
    });
    expect(sut.page).toEqual({
      limit: 50,
      after: { at: '2026-11-01T10:00:00.123456Z', id: '0123456789abcdef' },
    });
  });

  it('treats empty fields (an unset select or date) as absent', () => {
    const sut = parseSwapQuery({ status: '', pair: '', createdFrom: '', createdTo: ' ', q: '' });
    expect(sut).toEqual({ filters: {}, page: { limit: 50 }, errors: [] });
  });

  it('reads from and to apart when no pair is given', () => {
    expect(parseSwapQuery({ from: 'LTC' }).filters).toEqual({ from: 'ltc' });
    expect(parseSwapQuery({ to: 'eth' }).filters).toEqual({ to: 'eth' });
  });

  it.each([
    ['status', 'done'],
    ['status', ['waiting', 'finished']],
    ['status', { $ne: 'x' }],
    ['pair', 'btc'],
    ['pair', 'btc:eth:ltc'],
    ['pair', 'btc:'],
    ['pair', "btc:eth' OR 1=1"],
    ['from', 'b'.repeat(33)],
    ['createdFrom', '2026-02-30'],
    ['createdFrom', '26-01-01'],
    ['createdFrom', '1900-01-01'],
    ['createdTo', '2026-13-01'],
    ['createdTo', '2026-01-01T00:00:00Z'],
    ['q', 'a'.repeat(257)],
    ['q', 'abc\u0000def'],
    ['q', '\ud800'],
    ['after', 'not a token'],
    ['after', encodeKeyset({ at: '2026-11-01T10:00:00.123Z', id: '0123456789abcdef' })],
    ['before', encodeKeyset({ at: '2026-11-01T10:00:00.123456Z', id: "x' --" })],
    ['after', 'A'.repeat(500)],
  ])('reports %s=%j and leaves it out', (param, value) => {
    const sut = parseSwapQuery({ [param]: value });
    expect(sut.errors).toEqual([{ param, message: expect.any(String) }]);
    expect(sut.filters).toEqual({});
    expect(sut.page).toEqual({ limit: 50 });
  });

  it('refuses a range that ends before it starts, keeping its start', () => {
    const sut = parseSwapQuery({ createdFrom: '2026-10-02', createdTo: '2026-10-01' });
    expect(sut.filters).toEqual({ createdFrom: '2026-10-02' });
    expect(sut.errors.map((e) => e.param)).toEqual(['createdTo']);
  });

  it('takes one direction when both are sent', () => {
    const at = encodeKeyset({ at: '2026-11-01T10:00:00.123456Z', id: 'swp_legacy-1' });
    const sut = parseSwapQuery({ after: at, before: at });
    expect(sut.page.after).toBeDefined();
    expect(sut.page.before).toBeUndefined();
  });
});

describe(swapFiltersQuery.name, () => {
  it('writes back a query that reads as the same filters', () => {
    const filters = {
      status: 'hold',
      from: 'btc',
      to: 'eth',
      createdFrom: '2026-10-01',
      createdTo: '2026-10-02',
      search: 'ref 1',
    } as const;
    expect(parseSwapQuery(swapFiltersQuery(filters)).filters).toEqual(filters);
    expect(parseSwapQuery(swapFiltersQuery({ from: 'btc' })).filters).toEqual({ from: 'btc' });
  });
});
