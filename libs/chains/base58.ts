import { createHash } from 'node:crypto';

export const BITCOIN_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** The XRP Ledger permutes the alphabet so its addresses start with `r`. */
export const RIPPLE_ALPHABET = 'rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz';

export function base58Encode(bytes: Uint8Array, alphabet = BITCOIN_ALPHABET): string {
  let value = 0n;
  for (const byte of bytes) {
    value = (value << 8n) | BigInt(byte);
  }
  let out = '';
  while (value > 0n) {
    out = alphabet[Number(value % 58n)] + out;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) {
      break;
    }
    out = alphabet[0] + out;
  }
  return out;
}

/** `null` when the text holds a character outside the alphabet. */
export function base58Decode(text: string, alphabet = BITCOIN_ALPHABET): Uint8Array | null {
  let value = 0n;
  for (const char of text) {
    const digit = alphabet.indexOf(char);
    if (digit < 0) {
      return null;
    }
    value = value * 58n + BigInt(digit);
  }
  const body: number[] = [];
  while (value > 0n) {
    body.unshift(Number(value & 0xffn));
    value >>= 8n;
  }
  let zeros = 0;
  while (zeros < text.length && text[zeros] === alphabet[0]) {
    zeros++;
  }
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...body]);
}

function doubleSha256(bytes: Uint8Array): Buffer {
  return createHash('sha256').update(createHash('sha256').update(bytes).digest()).digest();
}

export function base58CheckEncode(payload: Uint8Array, alphabet = BITCOIN_ALPHABET): string {
  const checksum = doubleSha256(payload).subarray(0, 4);
  return base58Encode(Uint8Array.from([...payload, ...checksum]), alphabet);
}

/** The payload (version bytes included) when the 4-byte double-SHA-256 checksum matches. */
export function base58CheckDecode(text: string, alphabet = BITCOIN_ALPHABET): Uint8Array | null {
  const raw = base58Decode(text, alphabet);
  if (raw === null || raw.length < 5) {
    return null;
  }
  const payload = raw.subarray(0, raw.length - 4);
  const checksum = doubleSha256(payload).subarray(0, 4);
  return Buffer.from(raw.subarray(raw.length - 4)).equals(checksum) ? payload : null;
}
