import { requestContext } from '#app/logging';
import type { LiquidityProvider, ProviderName } from './liquidity-provider.js';
import {
  inMode,
  LiquidityProviders,
  ModeNotSetError,
  ModeRoutedProvider,
} from './mode-routed.provider.js';

type Method = Exclude<keyof LiquidityProvider, 'id' | 'name'>;

/** Records the name of each call it gets; answers none (the tests look only at who was called). */
class RecordingProvider implements LiquidityProvider {
  readonly calls: Method[] = [];

  constructor(
    readonly id: string,
    readonly name: ProviderName = 'changelly',
  ) {}

  private record(method: Method): Promise<never> {
    this.calls.push(method);
    return Promise.reject(new Error(`${this.id} answers no call`));
  }

  getCurrencies = () => this.record('getCurrencies');
  getPairParams = () => this.record('getPairParams');
  getFloatQuote = () => this.record('getFloatQuote');
  getFixedQuote = () => this.record('getFixedQuote');
  createTransaction = () => this.record('createTransaction');
  createFixedTransaction = () => this.record('createFixedTransaction');
  getTransactions = () => this.record('getTransactions');
  validateAddress = () => this.record('validateAddress');
}

const CALLS: Record<Method, (provider: LiquidityProvider) => Promise<unknown>> = {
  getCurrencies: (p) => p.getCurrencies(),
  getPairParams: (p) => p.getPairParams('btc', 'eth'),
  getFloatQuote: (p) => p.getFloatQuote({ from: 'btc', to: 'eth', amountFrom: '0.1' }),
  getFixedQuote: (p) => p.getFixedQuote({ from: 'btc', to: 'eth', amountFrom: '0.1' }),
  createTransaction: (p) =>
    p.createTransaction({ from: 'btc', to: 'eth', amountFrom: '0.1', address: 'a' }),
  createFixedTransaction: (p) =>
    p.createFixedTransaction({
      from: 'btc',
      to: 'eth',
      amountFrom: '0.1',
      address: 'a',
      rateId: 'r',
      refundAddress: 'b',
    }),
  getTransactions: (p) => p.getTransactions({ ids: ['x'] }),
  validateAddress: (p) => p.validateAddress('eth', 'a'),
};

describe(ModeRoutedProvider.name, () => {
  let live: RecordingProvider;
  let test: RecordingProvider;
  let sut: ModeRoutedProvider;

  beforeEach(() => {
    live = new RecordingProvider('live');
    test = new RecordingProvider('test', 'changenow');
    sut = new ModeRoutedProvider(new LiquidityProviders(live, test));
  });

  const methods = Object.keys(CALLS) as Method[];

  it.each(methods)('refuses %s without a mode and reaches neither provider', async (method) => {
    await expect(CALLS[method](sut)).rejects.toBeInstanceOf(ModeNotSetError);
    await expect(
      requestContext.run({ requestId: 'r1', orgId: 'org' }, () => CALLS[method](sut)),
    ).rejects.toBeInstanceOf(ModeNotSetError);
    expect(live.calls).toEqual([]);
    expect(test.calls).toEqual([]);
  });

  it.each(methods)('sends %s to the provider of the mode the context sets', async (method) => {
    await expect(
      requestContext.run({ requestId: 'r1', livemode: false }, () => CALLS[method](sut)),
    ).rejects.toThrow('test answers no call');
    await expect(inMode(true, () => CALLS[method](sut))).rejects.toThrow('live answers no call');
    expect(test.calls).toEqual([method]);
    expect(live.calls).toEqual([method]);
  });

  it('refuses to name a provider without a mode', () => {
    expect(() => sut.id).toThrow(ModeNotSetError);
    expect(() => sut.name).toThrow(ModeNotSetError);
    expect(inMode(false, () => sut.id)).toBe('test');
    expect(inMode(false, () => sut.name)).toBe('changenow');
    expect(inMode(true, () => sut.name)).toBe('changelly');
  });
});
