import { Decimal } from 'decimal.js';
import { generateAddress } from '#app/chains';
import { CATALOGUE, type SandboxCurrency } from './catalogue.js';
import { idsRequested, ParamsReader } from './params.reader.js';
import { RpcFailure } from './rpc-failure.js';

function currency(ticker: string): SandboxCurrency {
  const found = CATALOGUE.find((c) => c.ticker === ticker);
  if (!found) {
    throw new Error(ticker);
  }
  return found;
}

/** The JSON-RPC error a read answers with. */
function failure(read: () => unknown): { code: number; message: string } {
  try {
    read();
  } catch (error: unknown) {
    if (error instanceof RpcFailure) {
      return { code: error.code, message: error.message };
    }
    throw error;
  }
  throw new Error('the read succeeded');
}

const INVALID_PARAMS = -32602;
const INVALID_REQUEST = -32600;
const btc = currency('btc');
const eth = currency('eth');
const btcAddress = generateAddress('bitcoin', (n) => new Uint8Array(n).fill(7));
const ethAddress = generateAddress('ethereum', (n) => new Uint8Array(n).fill(9));

describe(ParamsReader.name, () => {
  it.each([null, [], 'btc', 5, undefined])('refuses %p as params: an object is expected', (v) => {
    expect(failure(() => ParamsReader.object(v))).toEqual({
      code: INVALID_PARAMS,
      message: 'Invalid params: an object is expected',
    });
  });

  it('reads quote params as one object or an array of them, each an object', () => {
    expect(ParamsReader.items({ from: 'btc' })).toHaveLength(1);
    expect(ParamsReader.items([{ from: 'btc' }, { from: 'eth' }])).toHaveLength(2);
    expect(failure(() => ParamsReader.items([{ from: 'btc' }, 'eth']))).toMatchObject({
      code: INVALID_PARAMS,
    });
  });

  describe('currencies and pairs', () => {
    it('finds a currency by ticker in any case and names an unknown one', () => {
      expect(ParamsReader.object({ currency: 'BTC' }).currency('currency')).toBe(btc);
      expect(failure(() => ParamsReader.object({ currency: 'zzz' }).currency('currency'))).toEqual({
        code: INVALID_PARAMS,
        message: 'Invalid currency: zzz is not supported',
      });
      expect(failure(() => ParamsReader.object({}).currency('currency'))).toEqual({
        code: INVALID_PARAMS,
        message: 'Invalid currency: undefined is not supported',
      });
    });

    it.each`
      from      | to        | mode       | why
      ${'btc'}  | ${'btc'}  | ${'float'} | ${'the same currency'}
      ${'etc'}  | ${'btc'}  | ${'float'} | ${'a disabled source'}
      ${'btc'}  | ${'dash'} | ${'float'} | ${'a source-only target'}
      ${'dash'} | ${'btc'}  | ${'fixed'} | ${'no fixed rate'}
    `(
      'refuses $from to $to ($mode): $why',
      ({ from, to, mode }: { from: string; to: string; mode: 'float' | 'fixed' }) => {
        expect(failure(() => ParamsReader.object({ from, to }).pair(mode))).toEqual({
          code: INVALID_PARAMS,
          message: `Invalid currency pair: ${from} to ${to} is not available`,
        });
      },
    );

    it('accepts a source-only currency as the source of a float swap', () => {
      expect(ParamsReader.object({ from: 'dash', to: 'btc' }).pair('float')).toEqual([
        currency('dash'),
        btc,
      ]);
    });
  });

  describe('amountFrom', () => {
    const range = { min: new Decimal('0.001'), max: new Decimal('2') };

    it.each(['0', '-1', '1e3', '.5', 'abc', '', 1, null, undefined])(
      'refuses %p: a positive decimal string is expected',
      (amountFrom) => {
        expect(failure(() => ParamsReader.object({ amountFrom }).amountFrom(btc))).toEqual({
          code: INVALID_PARAMS,
          message: 'Invalid amount: amountFrom must be a positive decimal string',
        });
      },
    );

    it("refuses more decimals than the currency's precision", () => {
      const sut = ParamsReader.object({ amountFrom: '0.123456789' });

      expect(failure(() => sut.amountFrom(btc))).toEqual({
        code: INVALID_PARAMS,
        message: 'Invalid amount: btc takes at most 8 decimal places',
      });
      expect(sut.amountFrom(eth).toFixed()).toBe('0.123456789');
    });

    it('answers an amount out of range with the bound, as an invalid request', () => {
      expect(
        failure(() => ParamsReader.object({ amountFrom: '0.0009' }).amountFrom(btc, range)),
      ).toEqual({
        code: INVALID_REQUEST,
        message: 'Invalid amount: minimal amount is 0.001',
      });
      expect(
        failure(() => ParamsReader.object({ amountFrom: '2.1' }).amountFrom(btc, range)),
      ).toEqual({
        code: INVALID_REQUEST,
        message: 'Invalid amount: maximal amount is 2',
      });
    });

    it('accepts the bounds themselves', () => {
      expect(ParamsReader.object({ amountFrom: '0.001' }).amountFrom(btc, range).toFixed()).toBe(
        '0.001',
      );
      expect(ParamsReader.object({ amountFrom: '2' }).amountFrom(btc, range).toFixed()).toBe('2');
    });
  });

  describe('addresses', () => {
    it("takes a payout address valid on the target's chain", () => {
      expect(ParamsReader.object({ address: ethAddress }).payoutAddress(eth)).toBe(ethAddress);
      for (const address of [btcAddress, '', undefined, 5]) {
        expect(failure(() => ParamsReader.object({ address }).payoutAddress(eth))).toEqual({
          code: INVALID_PARAMS,
          message: 'Invalid address',
        });
      }
    });

    it('takes a refund address valid on the source chain; float swaps may omit it', () => {
      expect(ParamsReader.object({ refundAddress: '' }).optionalRefundAddress(btc)).toBeNull();
      expect(ParamsReader.object({ refundAddress: btcAddress }).optionalRefundAddress(btc)).toBe(
        btcAddress,
      );
      expect(
        failure(() =>
          ParamsReader.object({ refundAddress: ethAddress }).optionalRefundAddress(btc),
        ),
      ).toEqual({ code: INVALID_PARAMS, message: 'Invalid refund address' });
      expect(failure(() => ParamsReader.object({}).refundAddress(btc))).toEqual({
        code: INVALID_PARAMS,
        message: 'Invalid refund address',
      });
    });
  });

  describe('transactionsQuery', () => {
    it('defaults to any id, the first 10', () => {
      expect(ParamsReader.object({}).transactionsQuery()).toEqual({
        provider: 'changelly',
        ids: null,
        payoutAddress: null,
        statuses: null,
        sinceMs: null,
        untilMs: null,
        limit: 10,
        offset: 0,
      });
    });

    it('takes one id as a string or up to 10 in an array, and a payout address', () => {
      expect(ParamsReader.object({ id: 'a' }).transactionsQuery().ids).toEqual(['a']);
      const ten = Array.from({ length: 10 }, (_, i) => `id${i}`);
      expect(
        ParamsReader.object({
          id: ten,
          payoutAddress: ethAddress,
          limit: 100,
          offset: 5,
        }).transactionsQuery(),
      ).toEqual({
        provider: 'changelly',
        ids: ten,
        payoutAddress: ethAddress,
        statuses: null,
        sinceMs: null,
        untilMs: null,
        limit: 100,
        offset: 5,
      });
    });

    it('filters by one status or several, and by creation time in Unix microseconds', () => {
      expect(ParamsReader.object({ status: 'hold' }).transactionsQuery().statuses).toEqual([
        'hold',
      ]);
      const query = ParamsReader.object({
        status: ['waiting', 'confirming'],
        since: 1_767_225_600_123_456,
      }).transactionsQuery();
      expect(query).toMatchObject({
        statuses: ['waiting', 'confirming'],
        sinceMs: 1_767_225_600_123,
      });
    });

    it.each`
      params                                        | message
      ${{ id: Array.from({ length: 11 }, String) }} | ${'Invalid parameter id: at most 10 ids per call'}
      ${{ id: [1] }}                                | ${'Invalid parameter id: a string or an array of strings is expected'}
      ${{ id: 5 }}                                  | ${'Invalid parameter id: a string or an array of strings is expected'}
      ${{ limit: 0 }}                               | ${'Invalid parameter limit: an integer from 1 to 100 is expected'}
      ${{ limit: 101 }}                             | ${'Invalid parameter limit: an integer from 1 to 100 is expected'}
      ${{ limit: 1.5 }}                             | ${'Invalid parameter limit: an integer from 1 to 100 is expected'}
      ${{ limit: '5' }}                             | ${'Invalid parameter limit: an integer from 1 to 100 is expected'}
      ${{ offset: -1 }}                             | ${'Invalid parameter offset: an integer from 0 to 9007199254740991 is expected'}
      ${{ status: 'done' }}                         | ${'Invalid parameter status: a status or an array of statuses is expected'}
      ${{ status: [1] }}                            | ${'Invalid parameter status: a status or an array of statuses is expected'}
      ${{ since: '2026-01-01' }}                    | ${'Invalid parameter since: an integer from 0 to 9007199254740991 is expected'}
      ${{ id: 5, limit: 0 }}                        | ${'Invalid parameter id: a string or an array of strings is expected'}
    `('refuses $params: $message', ({ params, message }: { params: object; message: string }) => {
      expect(failure(() => ParamsReader.object(params).transactionsQuery())).toEqual({
        code: INVALID_PARAMS,
        message,
      });
    });
  });
});

describe(idsRequested.name, () => {
  it.each`
    params                | expected
    ${{ id: ['a', 'b'] }} | ${2}
    ${{ id: 'a' }}        | ${1}
    ${{ id: [] }}         | ${0}
    ${{}}                 | ${null}
    ${[{ id: 'a' }]}      | ${null}
    ${null}               | ${null}
  `(
    'counts $expected ids in $params',
    ({ params, expected }: { params: unknown; expected: number | null }) => {
      expect(idsRequested(params)).toBe(expected);
    },
  );
});
