import { startHarness, type Harness } from './support/harness.js';

/** Currencies that need a memo do not exist in v1 (docs/decisions.md, "Tickers and aliases"). */
describe('Memo currencies', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  it('are absent from the currency list and refused as pair_unsupported in a quote', async () => {
    const { currencies } = (await h.get('/v1/currencies').expect(200)).body;
    const tickers = (currencies as { ticker: string }[]).map((c) => c.ticker);
    expect(tickers).toContain('btc');
    expect(tickers).not.toContain('xrp');

    const res = await h.post('/v1/quotes', { from: 'btc', to: 'xrp', amountFrom: '0.1' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'pair_unsupported', param: 'pair' });
  });
});
