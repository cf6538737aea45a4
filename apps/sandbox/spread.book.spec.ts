import { CATALOGUE } from './catalogue.js';
import { MAX_SEEDED_BPS, SpreadBook } from './spread.book.js';

describe(SpreadBook.name, () => {
  const pairs = CATALOGUE.flatMap((from) =>
    CATALOGUE.filter((to) => to !== from).map((to) => [from.ticker, to.ticker] as const),
  );

  it('seeds every pair and direction reproducibly, within bounds', () => {
    const sut = new SpreadBook(CATALOGUE, 42);
    const twin = new SpreadBook(CATALOGUE, 42);
    const other = new SpreadBook(CATALOGUE, 7);

    for (const [from, to] of pairs) {
      const bps = sut.bps('changenow', from, to);
      expect(bps).toBeGreaterThanOrEqual(0);
      expect(bps).toBeLessThanOrEqual(MAX_SEEDED_BPS);
      expect(twin.bps('changenow', from, to)).toBe(bps);
    }
    expect(
      pairs.some(
        ([from, to]) => other.bps('changelly', from, to) !== sut.bps('changelly', from, to),
      ),
    ).toBe(true);
  });

  it('makes each provider the better one on some pairs', () => {
    const sut = new SpreadBook(CATALOGUE, 42);
    const cheaper = (provider: 'changelly' | 'changenow', rival: 'changelly' | 'changenow') =>
      pairs.filter(([from, to]) => sut.bps(provider, from, to) < sut.bps(rival, from, to)).length;

    expect(cheaper('changelly', 'changenow')).toBeGreaterThan(10);
    expect(cheaper('changenow', 'changelly')).toBeGreaterThan(10);
  });

  it('overrides one provider, pair and direction until restored', () => {
    const sut = new SpreadBook(CATALOGUE, 42);
    const seeded = sut.bps('changelly', 'btc', 'eth');

    sut.set('changelly', 'btc', 'eth', 250);

    expect(sut.bps('changelly', 'btc', 'eth')).toBe(250);
    expect(sut.bps('changelly', 'eth', 'btc')).toBe(
      new SpreadBook(CATALOGUE, 42).bps('changelly', 'eth', 'btc'),
    );
    expect(sut.bps('changenow', 'btc', 'eth')).toBe(
      new SpreadBook(CATALOGUE, 42).bps('changenow', 'btc', 'eth'),
    );
    sut.restore();
    expect(sut.bps('changelly', 'btc', 'eth')).toBe(seeded);
  });
});
