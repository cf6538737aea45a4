import { normalizeFeePercent } from './organization.js';

describe(normalizeFeePercent.name, () => {
  const sut = normalizeFeePercent;

  it.each([
    ['0', '0'],
    ['4', '4'],
    ['1.5', '1.5'],
    ['1.50', '1.5'],
    ['04', '4'],
    ['0.00000001', '0.00000001'],
    ['3.99999999', '3.99999999'],
  ])('normalizes the decimal string %s to %s', (input, expected) => {
    expect(sut(input)).toBe(expected);
  });

  it.each([
    [0, '0'],
    [2, '2'],
    [2.5, '2.5'],
    [0.1, '0.1'],
    [1e-7, '0.0000001'],
  ])('turns the JSON number %p into the decimal string %s', (input, expected) => {
    expect(sut(input)).toBe(expected);
  });

  it.each([
    '5',
    '4.00000001',
    '-1',
    '-0',
    'abc',
    '',
    ' 1',
    '1.',
    '.5',
    '1e1',
    '0x1',
    '1.123456789',
    4.5,
    -1,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    null,
    undefined,
    true,
    ['1'],
    { value: '1' },
  ])('refuses %p', (input) => {
    expect(sut(input)).toBeNull();
  });
});
