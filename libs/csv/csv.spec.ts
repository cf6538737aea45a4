import { csvCell, csvRow } from './csv.js';

describe('csvCell', () => {
  it('writes plain values as they are and nothing for null', () => {
    expect(csvCell('btc')).toBe('btc');
    expect(csvCell('0.00012')).toBe('0.00012');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('quotes commas, quotes and line breaks, doubling the quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded ')).toBe('" padded "');
  });

  it.each(['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tx', '\r=1', '  =HYPERLINK("x")'])(
    'neutralizes the formula %j with a leading quote',
    (formula) => {
      const cell = csvCell(formula);
      const unquoted = cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell;
      expect(unquoted).toBe(`'${formula}`);
    },
  );

  it('keeps negative numbers as numbers', () => {
    expect(csvCell('-20')).toBe('-20');
    expect(csvCell('-0.5')).toBe('-0.5');
  });

  it('keeps unicode as it is', () => {
    expect(csvCell('Zürich ₿ 注文')).toBe('Zürich ₿ 注文');
  });
});

describe('csvRow', () => {
  it('joins the cells with commas and ends the record with CRLF', () => {
    expect(csvRow(['a', null, 'b,c', 1])).toBe('a,,"b,c",1\r\n');
  });
});
