import { bech32 } from '@scure/base';

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GENERATORS = [0x98f2bc8e61n, 0x79b76d99e2n, 0xf33e5fb3c4n, 0xae2eabe2a8n, 0x1e4f43e470n];
export const CASHADDR_PREFIX = 'bitcoincash';

function polymod(values: number[]): bigint {
  let c = 1n;
  for (const value of values) {
    const top = c >> 35n;
    c = ((c & 0x07ffffffffn) << 5n) ^ BigInt(value);
    for (let i = 0; i < 5; i++) {
      if ((top >> BigInt(i)) & 1n) {
        c ^= GENERATORS[i] ?? 0n;
      }
    }
  }
  return c ^ 1n;
}

function prefixValues(prefix: string): number[] {
  return [...[...prefix].map((c) => c.charCodeAt(0) & 31), 0];
}

/**
 * Bitcoin Cash CashAddr: version byte 0 (P2PKH) or 8 (P2SH) followed by a 20-byte hash. It packs
 * bytes into 5-bit words exactly as bech32 does, so bech32's regrouping serves; its checksum differs.
 */
export function encodeCashAddr(type: 'p2pkh' | 'p2sh', hash: Uint8Array): string {
  const payload = bech32.toWords(Uint8Array.from([type === 'p2pkh' ? 0 : 8, ...hash]));
  const mod = polymod([...prefixValues(CASHADDR_PREFIX), ...payload, 0, 0, 0, 0, 0, 0, 0, 0]);
  const checksum = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => Number((mod >> BigInt(5 * (7 - i))) & 31n));
  return `${CASHADDR_PREFIX}:${[...payload, ...checksum].map((v) => CHARSET[v]).join('')}`;
}

/** Accepts the address with or without the `bitcoincash:` prefix, in one case only. */
export function decodeCashAddr(
  address: string,
): { type: 'p2pkh' | 'p2sh'; hash: Uint8Array } | null {
  // ASCII first: case-folding maps some non-ASCII letters (the Kelvin sign) onto the charset.
  if (!/^[0-9A-Za-z:]+$/.test(address)) {
    return null;
  }
  if (address !== address.toLowerCase() && address !== address.toUpperCase()) {
    return null;
  }
  const lower = address.toLowerCase();
  const body = lower.startsWith(`${CASHADDR_PREFIX}:`)
    ? lower.slice(CASHADDR_PREFIX.length + 1)
    : lower;
  const values: number[] = [];
  for (const char of body) {
    const value = CHARSET.indexOf(char);
    if (value < 0) {
      return null;
    }
    values.push(value);
  }
  if (values.length !== 42 || polymod([...prefixValues(CASHADDR_PREFIX), ...values]) !== 0n) {
    return null;
  }
  // 34 words hold 21 bytes and 2 padding bits, which must be zero.
  const bytes = bech32.fromWordsUnsafe(values.slice(0, -8));
  if (bytes === undefined || (bytes[0] !== 0 && bytes[0] !== 8)) {
    return null;
  }
  return { type: bytes[0] === 0 ? 'p2pkh' : 'p2sh', hash: bytes.subarray(1) };
}
