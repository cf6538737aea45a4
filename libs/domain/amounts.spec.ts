import {
  anomalyPercent,
  applyFee,
  boundsProblem,
  checkAmount,
  netOfNetworkFee,
} from './amounts.js';
import { feeInUsd, reachesPayoutThreshold } from './earnings.js';

describe(checkAmount.name, () => {
  it('normalizes a valid decimal string', () => {
    expect(checkAmount('000.50', 8)).toEqual({ ok: true, value: '0.5' });
  });

  it.each([['-1'], ['1e5'], ['.5'], ['1.'], [' 1'], ['abc'], [0.1], [null]])(
    'refuses %p as not a decimal string',
    (raw) => {
      expect(checkAmount(raw, 8)).toEqual({ ok: false, problem: 'not_decimal' });
    },
  );

  it('refuses zero', () => {
    expect(checkAmount('0.000', 8)).toEqual({ ok: false, problem: 'not_positive' });
  });

  it("refuses more decimals than the currency's precision", () => {
    expect(checkAmount('0.123456789', 8)).toEqual({ ok: false, problem: 'too_many_decimals' });
    expect(checkAmount('0.12345678', 8).ok).toBe(true);
  });
});

describe(boundsProblem.name, () => {
  it('tells below, above and within apart, bounds included', () => {
    expect(boundsProblem('0.0001', '0.001', '10')).toBe('below_min');
    expect(boundsProblem('11', '0.001', '10')).toBe('above_max');
    expect(boundsProblem('0.001', '0.001', '10')).toBeNull();
    expect(boundsProblem('10', '0.001', '10')).toBeNull();
  });
});

describe(applyFee.name, () => {
  it('takes the fee off and rounds down to the precision', () => {
    expect(applyFee('100', '1', 8)).toBe('99');
    expect(applyFee('0.123456789', '2.5', 6)).toBe('0.12037');
    expect(applyFee('10', '0', 2)).toBe('10');
  });
});

describe(netOfNetworkFee.name, () => {
  it('subtracts the network fee without going negative', () => {
    expect(netOfNetworkFee('1.5', '0.25')).toBe('1.25');
    expect(netOfNetworkFee('0.1', '0.25')).toBe('0');
  });
});

describe(anomalyPercent.name, () => {
  it('is the signed percent the received amount differs by', () => {
    expect(anomalyPercent('1', '1.2')).toBe('20');
    expect(anomalyPercent('2', '1.5')).toBe('-25');
    expect(anomalyPercent('1', null)).toBeNull();
  });
});

describe(feeInUsd.name, () => {
  it('is fee % of the received amount in USD, rounded down to 6 decimals', () => {
    expect(feeInUsd('0.5', '60000', '1')).toBe('300');
    expect(feeInUsd('0.1234567', '1.1', '1.5')).toBe('0.002037');
  });

  it('makes a payout due at 100 USD', () => {
    expect(reachesPayoutThreshold('99.999999')).toBe(false);
    expect(reachesPayoutThreshold('100')).toBe(true);
  });
});
