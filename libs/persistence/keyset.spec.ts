import { decodeKeyset, encodeKeyset, keysetClauses, keysetPage } from './keyset.js';

const ID = /^[a-z]$/;
const at = (second: number): string =>
  `2026-11-01T10:00:${String(second).padStart(2, '0')}.000001Z`;

describe('keyset tokens', () => {
  it('decode to the position they were made from', () => {
    const position = { at: at(5), id: 'q' };
    expect(decodeKeyset(encodeKeyset(position), ID)).toEqual(position);
  });

  it.each(['', '!!', 'a'.repeat(201), encodeKeyset({ at: 'yesterday', id: 'q' })])(
    'refuses %j',
    (token) => {
      expect(decodeKeyset(token, ID)).toBeNull();
    },
  );

  it('refuses an id its list does not use', () => {
    expect(decodeKeyset(encodeKeyset({ at: at(1), id: 'Q1' }), ID)).toBeNull();
    expect(decodeKeyset(Buffer.from(`${at(1)}|q|r`).toString('base64url'), ID)).toBeNull();
  });
});

describe(keysetPage.name, () => {
  const rows = 'abcdef'.split('').map((id, i) => ({ id, at: at(59 - i) }));
  const positionOf = (row: { id: string; at: string }) => row;

  it('has no previous page at the start and a next one when a row is left', () => {
    const sut = keysetPage(rows.slice(0, 3), { limit: 2 }, positionOf);
    expect(sut.items.map((r) => r.id)).toEqual(['a', 'b']);
    expect(decodeKeyset(sut.next ?? '', ID)).toEqual(rows[1]);
    expect(sut.previous).toBeNull();
  });

  it('after a position, has a previous page and ends where the rows end', () => {
    const sut = keysetPage(rows.slice(4, 6), { limit: 2, after: rows[3] }, positionOf);
    expect(sut.items.map((r) => r.id)).toEqual(['e', 'f']);
    expect(sut.next).toBeNull();
    expect(decodeKeyset(sut.previous ?? '', ID)).toEqual(rows[4]);
  });

  it('before a position, reads backwards and turns the rows round', () => {
    // Read oldest first: d, c, b (one more than the limit).
    const sut = keysetPage([rows[3], rows[2], rows[1]], { limit: 2, before: rows[4] }, positionOf);
    expect(sut.items.map((r) => r.id)).toEqual(['c', 'd']);
    expect(decodeKeyset(sut.previous ?? '', ID)).toEqual(rows[2]);
    expect(decodeKeyset(sut.next ?? '', ID)).toEqual(rows[3]);
  });

  it('before a position at the start, has no previous page', () => {
    const sut = keysetPage([rows[1], rows[0]], { limit: 2, before: rows[2] }, positionOf);
    expect(sut.items.map((r) => r.id)).toEqual(['a', 'b']);
    expect(sut.previous).toBeNull();
  });
});

describe(keysetClauses.name, () => {
  it('numbers its parameters after the caller’s and orders by the position', () => {
    expect(keysetClauses('s', { limit: 5, after: { at: at(1), id: 'a' } }, 3)).toEqual({
      condition: '(s.created_at, s.id) < ($3::timestamptz, $4)',
      values: [at(1), 'a'],
      order: 'ORDER BY s.created_at DESC, s.id DESC',
    });
    expect(keysetClauses('s', { limit: 5, before: { at: at(1), id: 'a' } }, 1).order).toBe(
      'ORDER BY s.created_at ASC, s.id ASC',
    );
    expect(keysetClauses('s', { limit: 5 }, 1).condition).toBeNull();
  });
});
