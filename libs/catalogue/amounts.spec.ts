import { AppError } from '#app/errors';
import { assertWithinBounds, parseAmount } from './amounts.js';

function caught(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error: unknown) {
    return error as AppError;
  }
  throw new Error('expected a throw');
}

describe('amounts', () => {
  describe(parseAmount.name, () => {
    it('normalizes a valid decimal string', () => {
      expect(parseAmount('000.50', 8, 'amountFrom')).toBe('0.5');
    });

    it.each([['0'], ['-1'], ['1e5'], ['.5'], ['1.'], [' 1'], ['abc']])(
      'refuses %p with param',
      (raw) => {
        const error = caught(() => parseAmount(raw, 8, 'amountFrom'));
        expect(error.code).toBe('invalid_request');
        expect(error.param).toBe('amountFrom');
      },
    );

    it('refuses a JSON number', () => {
      expect(caught(() => parseAmount(0.1, 8, 'amountFrom')).param).toBe('amountFrom');
    });

    it('answers too many decimals with the unavailable-pair message and -32602', () => {
      const error = caught(() => parseAmount('0.123456789', 8, 'amountFrom'));
      expect(error.upstreamCode).toBe(-32602);
      expect(error.code).toBe('invalid_request');
    });
  });

  describe(assertWithinBounds.name, () => {
    it('names the minimum in the message', () => {
      const error = caught(() => assertWithinBounds('0.0001', '0.001', '10', 'btc'));
      expect(error.code).toBe('amount_below_min');
      expect(error.message).toContain('0.001');
    });

    it('refuses above the maximum', () => {
      expect(caught(() => assertWithinBounds('11', '0.001', '10', 'btc')).code).toBe(
        'amount_above_max',
      );
    });
  });
});
