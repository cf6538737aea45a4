import { Decimal } from 'decimal.js';
import { AppError, ErrorCode } from '#app/errors';
import { ProviderError, type Delivery } from '#app/provider';
import {
  boundsRefusal,
  callVerdict,
  isRefusal,
  mayFailOver,
  rank,
  weighByFidelity,
  type FlowBounds,
} from './routing-rules.js';

function providerError(code: ErrorCode, delivery: Delivery): ProviderError {
  return new ProviderError(code, 'refused', { method: 'createTransaction', delivery });
}

describe('routing rules', () => {
  describe(mayFailOver.name, () => {
    it.each([
      ['a refused connection', providerError(ErrorCode.UpstreamUnavailable, 'not_sent')],
      ['our own budget', providerError(ErrorCode.UpstreamRateLimited, 'not_sent')],
      ["the provider's rate limit", providerError(ErrorCode.UpstreamRateLimited, 'refused')],
      ['an amount below its minimum', providerError(ErrorCode.AmountBelowMin, 'refused')],
      ['an amount above its maximum', providerError(ErrorCode.AmountAboveMax, 'refused')],
      ['an inactive pair', providerError(ErrorCode.PairUnsupported, 'refused')],
    ])('moves on after %s: nothing was made', (_, error) => {
      expect(mayFailOver(error)).toBe(true);
    });

    it.each([
      ['an address it refused', providerError(ErrorCode.InvalidRequest, 'refused')],
      ['an expired fixed rate', providerError(ErrorCode.RateExpired, 'refused')],
      ['a timeout after sending', providerError(ErrorCode.UpstreamUnavailable, 'unknown')],
      ['an HTTP 5xx', providerError(ErrorCode.UpstreamError, 'unknown')],
      ['an unreadable answer', providerError(ErrorCode.UpstreamBadResponse, 'unknown')],
      ['a failure that is not the provider’s', new Error('database down')],
    ])('never moves on after %s', (_, error) => {
      expect(mayFailOver(error)).toBe(false);
    });
  });

  describe(callVerdict.name, () => {
    it.each([
      ['an answer', null, 'success'],
      ['a timeout', providerError(ErrorCode.UpstreamUnavailable, 'unknown'), 'failure'],
      ['a refused connection', providerError(ErrorCode.UpstreamUnavailable, 'not_sent'), 'failure'],
      ['an HTTP 5xx', providerError(ErrorCode.UpstreamError, 'unknown'), 'failure'],
      ['a non-JSON answer', providerError(ErrorCode.UpstreamBadResponse, 'unknown'), 'failure'],
      ['its rate limit', providerError(ErrorCode.UpstreamRateLimited, 'refused'), 'neutral'],
      ['our budget', providerError(ErrorCode.UpstreamRateLimited, 'not_sent'), 'neutral'],
      ['an empty quote', providerError(ErrorCode.UpstreamEmptyQuote, 'refused'), 'neutral'],
      ['a refused amount', providerError(ErrorCode.AmountBelowMin, 'refused'), 'neutral'],
    ])('counts %s as %s', (_, error, verdict) => {
      expect(callVerdict(error)).toBe(verdict);
    });
  });

  describe(boundsRefusal.name, () => {
    const low: FlowBounds = { min: '0.01', max: '1' };
    const high: FlowBounds = { min: '2', max: '50' };

    it('lets an amount through when any provider takes it', () => {
      expect(boundsRefusal([low, high], '0.5', 'btc')).toBeNull();
      expect(boundsRefusal([low, high], '10', 'btc')).toBeNull();
    });

    it('names the lowest minimum below every range and the highest maximum above', () => {
      expect(boundsRefusal([low, high], '0.001', 'btc')).toMatchObject({
        code: ErrorCode.AmountBelowMin,
        message: 'Minimal amount is 0.01 btc.',
      });
      expect(boundsRefusal([low, high], '51', 'btc')).toMatchObject({
        code: ErrorCode.AmountAboveMax,
        message: 'Maximal amount is 50 btc.',
      });
    });

    it('names the smallest minimum above an amount that falls in a gap between ranges', () => {
      expect(boundsRefusal([low, high], '1.5', 'btc')).toMatchObject({
        code: ErrorCode.AmountBelowMin,
        message: 'Minimal amount is 2 btc.',
        param: 'amountFrom',
      });
    });

    it('takes a provider without a maximum as taking any larger amount', () => {
      expect(boundsRefusal([{ min: '1', max: null }], '1000000', 'btc')).toBeNull();
    });
  });

  describe(rank.name, () => {
    it('puts the higher score first and breaks a tie by the order of PROVIDERS', () => {
      const ranked = rank([
        { provider: 'changenow', order: 1, score: new Decimal('1.5'), value: 'b' },
        { provider: 'changelly', order: 0, score: new Decimal('1.5'), value: 'a' },
        { provider: 'changenow', order: 1, score: new Decimal('1.6'), value: 'c' },
      ] as const);

      expect(ranked.map((r) => r.value)).toEqual(['c', 'a', 'b']);
    });
  });

  describe(weighByFidelity.name, () => {
    it('weighs an estimate by a fidelity below 1 once 20 swaps back it', () => {
      expect(weighByFidelity(new Decimal(2), { value: '0.9', swaps: 20 }).toFixed()).toBe('1.8');
    });

    it('caps a fidelity above 1, and ignores one with fewer than 20 swaps', () => {
      expect(weighByFidelity(new Decimal(2), { value: '1.2', swaps: 40 }).toFixed()).toBe('2');
      expect(weighByFidelity(new Decimal(2), { value: '0.5', swaps: 19 }).toFixed()).toBe('2');
      expect(weighByFidelity(new Decimal(2), null).toFixed()).toBe('2');
    });
  });

  describe(isRefusal.name, () => {
    it('takes refusals of the amount or pair as refusals, outages as failures', () => {
      expect(isRefusal(new AppError(ErrorCode.AmountAboveMax, 'too much'))).toBe(true);
      expect(isRefusal(providerError(ErrorCode.PairUnsupported, 'refused'))).toBe(true);
      expect(isRefusal(providerError(ErrorCode.UpstreamError, 'unknown'))).toBe(false);
      expect(isRefusal(providerError(ErrorCode.UpstreamRateLimited, 'refused'))).toBe(false);
    });
  });
});
