const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GENERATORS = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

export type Bech32Variant = 'bech32' | 'bech32m';

const CONSTANTS: Record<Bech32Variant, number> = { bech32: 1, bech32m: 0x2bc830a3 };

export interface Bech32Decoded {
  prefix: string;
  words: number[];
  variant: Bech32Variant;
}

function polymod(values: number[]): number {
  let chk = 1;
  for (const value of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ value;
    for (let i = 0; i < 5; i++) {
      if ((top >>> i) & 1) {
        chk ^= GENERATORS[i] ?? 0;
      }
    }
  }
  return chk >>> 0;
}

function expandPrefix(prefix: string): number[] {
  const high = [...prefix].map((c) => c.charCodeAt(0) >> 5);
  const low = [...prefix].map((c) => c.charCodeAt(0) & 31);
  return [...high, 0, ...low];
}

export function bech32Encode(prefix: string, words: number[], variant: Bech32Variant): string {
  const values = [...expandPrefix(prefix), ...words, 0, 0, 0, 0, 0, 0];
  const mod = polymod(values) ^ CONSTANTS[variant];
  const checksum = [0, 1, 2, 3, 4, 5].map((i) => (mod >>> (5 * (5 - i))) & 31);
  return `${prefix}1${[...words, ...checksum].map((w) => CHARSET[w]).join('')}`;
}

/**
 * Decodes and verifies the checksum (either variant). Mixed case is refused, as BIP-173 says.
 * `maxLength` defaults to BIP-173's 90; Cardano addresses are longer.
 */
export function bech32Decode(text: string, maxLength = 90): Bech32Decoded | null {
  if (text.length > maxLength || (text !== text.toLowerCase() && text !== text.toUpperCase())) {
    return null;
  }
  const lower = text.toLowerCase();
  const separator = lower.lastIndexOf('1');
  if (separator < 1 || separator + 7 > lower.length) {
    return null;
  }
  const prefix = lower.slice(0, separator);
  const words: number[] = [];
  for (const char of lower.slice(separator + 1)) {
    const word = CHARSET.indexOf(char);
    if (word < 0) {
      return null;
    }
    words.push(word);
  }
  const check = polymod([...expandPrefix(prefix), ...words]);
  const variant =
    check === CONSTANTS.bech32 ? 'bech32' : check === CONSTANTS.bech32m ? 'bech32m' : null;
  if (variant === null) {
    return null;
  }
  return { prefix, words: words.slice(0, -6), variant };
}

/** Regroups bits (8 → 5 to encode, 5 → 8 to decode); `null` on invalid padding. */
export function convertBits(
  data: ArrayLike<number>,
  from: number,
  to: number,
  pad: boolean,
): number[] | null {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  const max = (1 << to) - 1;
  for (let i = 0; i < data.length; i++) {
    const value = data[i] ?? 0;
    acc = (acc << from) | value;
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((acc >> bits) & max);
    }
  }
  if (pad) {
    if (bits > 0) {
      out.push((acc << (to - bits)) & max);
    }
  } else if (bits >= from || ((acc << (to - bits)) & max) !== 0) {
    return null;
  }
  return out;
}

/** A segwit address (BIP-173 / BIP-350): version 0 with bech32, versions 1–16 with bech32m. */
export function decodeSegwit(
  prefix: string,
  address: string,
): { version: number; program: Uint8Array } | null {
  const decoded = bech32Decode(address);
  if (decoded === null || decoded.prefix !== prefix || decoded.words.length < 1) {
    return null;
  }
  const [version = -1, ...rest] = decoded.words;
  const program = convertBits(rest, 5, 8, false);
  if (program === null || version > 16 || program.length < 2 || program.length > 40) {
    return null;
  }
  if (
    version === 0 &&
    (decoded.variant !== 'bech32' || (program.length !== 20 && program.length !== 32))
  ) {
    return null;
  }
  if (version !== 0 && decoded.variant !== 'bech32m') {
    return null;
  }
  return { version, program: Uint8Array.from(program) };
}

export function encodeSegwit(prefix: string, version: number, program: Uint8Array): string {
  const words = [version, ...(convertBits(program, 8, 5, true) ?? [])];
  return bech32Encode(prefix, words, version === 0 ? 'bech32' : 'bech32m');
}
