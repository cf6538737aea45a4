import { xrpBase58check } from './base58check.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('xrpBase58check', () => {
  it('reads the genesis account as version 0 and its 20-byte account id', () => {
    const sut = xrpBase58check.decode('rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh');
    expect(hex(sut)).toBe('00b5f762798a53d543a014caf8b297cff8f2f937e8');
  });

  it('writes leading zero bytes as leading r, as the ledger names ACCOUNT_ZERO', () => {
    const sut = xrpBase58check.encode(new Uint8Array(21));
    expect(sut).toBe('rrrrrrrrrrrrrrrrrrrrrhoLvTp');
  });

  it('refuses one changed letter and a Bitcoin-alphabet address', () => {
    expect(() => xrpBase58check.decode('rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTi')).toThrow();
    expect(() => xrpBase58check.decode('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toThrow();
  });
});
