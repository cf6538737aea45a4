import { decodeSegwit, encodeSegwit } from './segwit.js';

const hex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, 'hex'));

/** BIP-173 and BIP-350 mainnet vectors: a v0 key hash and a v1 (taproot) output key. */
const V0 = {
  address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
  program: hex('751e76e8199196d454941c45d1b3a323f1433bd6'),
};
const V1 = {
  address: 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
  program: hex('79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798'),
};

describe(decodeSegwit.name, () => {
  it('reads the version and program of a v0 address in either case', () => {
    const expected = { version: 0, program: V0.program };
    expect(decodeSegwit('bc', V0.address)).toEqual(expected);
    expect(decodeSegwit('bc', V0.address.toUpperCase())).toEqual(expected);
  });

  it('reads a taproot address, checksummed with bech32m', () => {
    const sut = decodeSegwit('bc', V1.address);
    expect(sut).toEqual({ version: 1, program: V1.program });
  });

  it('refuses a mixed-case address and another network', () => {
    expect(decodeSegwit('bc', 'bc1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4')).toBeNull();
    expect(decodeSegwit('bc', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx')).toBeNull();
  });
});

describe(encodeSegwit.name, () => {
  it('checksums version 0 with bech32 and version 1 with bech32m', () => {
    expect(encodeSegwit('bc', 0, V0.program)).toBe(V0.address);
    expect(encodeSegwit('bc', 1, V1.program)).toBe(V1.address);
  });
});
