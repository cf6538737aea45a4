const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding (Stellar's StrKey). */
export const base32 = {
  encode(bytes: Uint8Array): string {
    let bits = 0;
    let acc = 0;
    let out = '';
    for (const byte of bytes) {
      acc = (acc << 8) | byte;
      bits += 8;
      while (bits >= 5) {
        bits -= 5;
        out += ALPHABET[(acc >> bits) & 31];
      }
    }
    if (bits > 0) {
      out += ALPHABET[(acc << (5 - bits)) & 31];
    }
    return out;
  },
  decode(text: string): Uint8Array | null {
    let bits = 0;
    let acc = 0;
    const out: number[] = [];
    for (const char of text) {
      const value = ALPHABET.indexOf(char);
      if (value < 0) {
        return null;
      }
      acc = ((acc << 5) | value) & 0xffff;
      bits += 5;
      if (bits >= 8) {
        bits -= 8;
        out.push((acc >> bits) & 0xff);
      }
    }
    return Uint8Array.from(out);
  },
};
