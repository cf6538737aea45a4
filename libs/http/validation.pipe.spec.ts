import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { AppError, ErrorCode } from '#app/errors';
import { createValidationPipe } from './validation.pipe.js';

class PriceQuery {
  @IsString()
  @MaxLength(8)
  from!: string;

  @IsOptional()
  @Matches(/^[0-9]+(\.[0-9]+)?$/, { message: 'amount must be a positive decimal string.' })
  amount?: string;
}

const asQuery = { type: 'query', metatype: PriceQuery, data: undefined } as const;
const asBody = { type: 'body', metatype: PriceQuery, data: undefined } as const;

/** What the pipe refused `value` with: the envelope's code, param and message. */
async function refusal(
  promise: Promise<unknown>,
): Promise<{ code: ErrorCode; param: string | null; message: string }> {
  const error: unknown = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof AppError)) {
    throw new Error(`expected an AppError, got ${String(error)}`);
  }
  return { code: error.code, param: error.param, message: error.message };
}

describe('the validation pipe', () => {
  it('answers a repeated query with the DTO it validated, which no caller can change', async () => {
    const pipe = createValidationPipe();
    const first = (await pipe.transform({ from: 'btc', amount: '1' }, asQuery)) as PriceQuery;
    const again = await pipe.transform({ from: 'btc', amount: '1' }, asQuery);
    expect(first).toBeInstanceOf(PriceQuery);
    expect(first).toEqual({ from: 'btc', amount: '1' });
    expect(again).toBe(first);
    expect(() => {
      first.amount = '2';
    }).toThrow(TypeError);
    expect(await pipe.transform({ from: 'btc', amount: '1' }, asQuery)).toEqual({
      from: 'btc',
      amount: '1',
    });
  });

  it('refuses an invalid query every time, saying which parameter and why', async () => {
    const pipe = createValidationPipe();
    const expected = {
      code: ErrorCode.InvalidRequest,
      param: 'amount',
      message: 'amount must be a positive decimal string.',
    };
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(await refusal(pipe.transform({ from: 'btc', amount: '-1' }, asQuery))).toEqual(
        expected,
      );
    }
    expect(await refusal(pipe.transform({ from: 'btc', extra: '1' }, asQuery))).toEqual({
      code: ErrorCode.InvalidRequest,
      param: 'extra',
      message: "Unknown field 'extra'.",
    });
  });

  it('gives each distinct query its own DTO, past the number of queries it keeps', async () => {
    const pipe = createValidationPipe();
    for (let round = 0; round < 2; round += 1) {
      for (let n = 1; n <= 1_200; n += 1) {
        const amount = String(n);
        expect(await pipe.transform({ from: 'btc', amount }, asQuery)).toEqual({
          from: 'btc',
          amount,
        });
      }
    }
    expect(await refusal(pipe.transform({ from: 'too-long-ticker' }, asQuery))).toMatchObject({
      param: 'from',
    });
  });

  it('validates every body afresh, into a DTO of its own', async () => {
    const pipe = createValidationPipe();
    const first = (await pipe.transform({ from: 'btc' }, asBody)) as PriceQuery;
    const again = (await pipe.transform({ from: 'btc' }, asBody)) as PriceQuery;
    expect(again).not.toBe(first);
    first.amount = '2';
    expect(again).toEqual({ from: 'btc' });
  });
});
