import { randomBytes } from 'node:crypto';
import { CHAINS, generateAddress, validateAddress } from './address.codec.js';

/** Real, published mainnet addresses (genesis, well-known contracts, BIP/CIP test vectors). */
const KNOWN: [string, string][] = [
  ['bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
  ['bitcoin', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'],
  ['bitcoin', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
  ['bitcoin', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4'],
  ['bitcoin', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0'],
  ['bitcoin', 'BC1SW50QGDZ25J'],
  ['bitcoin', 'bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs'],
  ['litecoin', 'MQMcJhpWHYVeQArcZR3sBgyPZxxRtnH441'],
  ['doge', 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L'],
  ['bitcoin_cash', 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a'],
  ['bitcoin_cash', 'qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a'],
  ['bitcoin_cash', 'bitcoincash:ppm2qsznhks23z7629mms6s4cwef74vcwvn0h829pq'],
  ['bitcoin_cash', '1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu'],
  ['ethereum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
  ['ethereum', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359'],
  ['ethereum', '0xdbf03b407c01e7cd3cbea99509d93f8dddc8c6fb'],
  ['binance_smart_chain', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb'],
  ['tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
  ['tron', 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE'],
  ['solana', 'So11111111111111111111111111111111111111112'],
  ['solana', '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'],
  [
    'cardano',
    'addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x',
  ],
  ['cardano', 'addr1vx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzers66hrl8'],
  ['ripple', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh'],
  ['ripple', 'rrrrrrrrrrrrrrrrrrrrrhoLvTp'],
  ['stellar', 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7'],
];

/** One character off, a wrong network, or a wrong checksum case: each must be refused. */
const BROKEN: [string, string][] = [
  ['bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb'],
  ['bitcoin', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdd'],
  ['bitcoin', 'Bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
  ['bitcoin', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx'],
  ['bitcoin', ' 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
  ['bitcoin', 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L'],
  ['litecoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
  ['doge', 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7K'],
  ['bitcoin_cash', 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6b'],
  ['ethereum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD'],
  ['ethereum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA'],
  ['tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u'],
  ['tron', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
  ['solana', 'So1111111111111111111111111111111111111111O'],
  ['solana', '1111'],
  [
    'cardano',
    'addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3y',
  ],
  ['ripple', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTi'],
  ['stellar', 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN6'],
  [
    'monero',
    '44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsaBYBb98uNbr2VBBEt7f2wfn3RVGQBEP3A',
  ],
];

const SEGWIT = 'not a valid Bitcoin address: bech32 checksum or program mismatch';
const LEGACY = 'not a valid Bitcoin address: base58check checksum or version mismatch';

/** Near misses at the edges of each encoding, with the reason the partner is given. */
const EDGES: [string, string, string, string][] = [
  [
    'bitcoin',
    'a taproot address in bech32',
    'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd',
    SEGWIT,
  ],
  [
    'bitcoin',
    'a v16 address in bech32',
    'BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL',
    SEGWIT,
  ],
  ['bitcoin', 'a v0 address in bech32m', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzm4yhgz', SEGWIT],
  ['bitcoin', 'a v0 program of 16 bytes', 'BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', SEGWIT],
  ['bitcoin', 'a program of 1 byte', 'bc1pw5dgrnzv', SEGWIT],
  [
    'bitcoin',
    'a program of 41 bytes',
    'bc10w508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kw5rljs90',
    SEGWIT,
  ],
  ['bitcoin', 'non-zero padding bits', 'bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du', SEGWIT],
  ['bitcoin', 'no witness version', 'bc1gmk9yu', SEGWIT],
  [
    'bitcoin',
    'a 21-byte hash with a valid checksum',
    '1goNG9qzSRi5Fr4MWz8gjDCarHFQ61kKYnp',
    LEGACY,
  ],
  ['bitcoin', 'a 19-byte hash with a valid checksum', '133VQZmihsauVFjR6XTtJkHs9ZP6Nwkii', LEGACY],
  // Case-folding turns the Kelvin sign into an ASCII `k`; the chains' decoders refuse non-ASCII.
  ['bitcoin', 'a Kelvin sign for K', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7\u212AV8F3T4', SEGWIT],
  [
    'bitcoin_cash',
    'a Kelvin sign for K',
    'BITCOINCASH:QPM2QSZNH\u212AS23Z7629MMS6S4CWEF74VCWVY22GDX6A',
    'not a valid Bitcoin Cash address: CashAddr checksum mismatch',
  ],
  [
    'cardano',
    'a Kelvin sign for K',
    'ADDR1VX2FXV2UMYHTTKXYXP8X0DLPDT3\u212A6CWNG5PXJ3JHSYDZERS66HRL8',
    'not a valid Cardano address: expected a bech32 addr1… address',
  ],
  [
    'cardano',
    'a bech32m checksum',
    'addr1vx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzers0x8069',
    'not a valid Cardano address: expected a bech32 addr1… address',
  ],
];

describe(validateAddress.name, () => {
  it.each(KNOWN)('accepts the real %s address %s', (chain, address) => {
    expect(validateAddress(chain, address)).toEqual({ valid: true });
  });

  it.each(BROKEN)('refuses the %s address %s with a reason', (chain, address) => {
    const sut = validateAddress(chain, address);
    expect(sut.valid).toBe(false);
    expect(sut.reason).toEqual(expect.any(String));
  });

  it.each(EDGES)('refuses the %s address with %s', (chain, _case, address, reason) => {
    expect(validateAddress(chain, address)).toEqual({ valid: false, reason });
  });

  it.each([
    ['bitcoin_cash', 'BITCOINCASH:QPM2QSZNHKS23Z7629MMS6S4CWEF74VCWVY22GDX6A'],
    ['cardano', 'ADDR1VX2FXV2UMYHTTKXYXP8X0DLPDT3K6CWNG5PXJ3JHSYDZERS66HRL8'],
  ])('accepts the upper-case %s address the Kelvin-sign edge is made from', (chain, address) => {
    expect(validateAddress(chain, address)).toEqual({ valid: true });
  });
});

describe(generateAddress.name, () => {
  it.each(CHAINS.map((chain) => [chain]))(
    'generates %s addresses that pass the strict check',
    (chain) => {
      for (let i = 0; i < 20; i++) {
        const sut = generateAddress(chain, (n) => randomBytes(n));
        expect(validateAddress(chain, sut)).toEqual({ valid: true });
      }
    },
  );
});
