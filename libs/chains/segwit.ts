import { bech32, bech32m } from '@scure/base';

/** A segwit address (BIP-173 / BIP-350): version 0 with bech32, versions 1–16 with bech32m. */
export function decodeSegwit(
  prefix: string,
  address: string,
): { version: number; program: Uint8Array } | null {
  const withBech32 = bech32.decodeUnsafe(address);
  const decoded = withBech32 ?? bech32m.decodeUnsafe(address);
  if (decoded === undefined || decoded.prefix !== prefix) {
    return null;
  }
  const [version, ...rest] = decoded.words;
  // BIP-350 ties the checksum to the version: a v0 program in bech32m, or v1+ in bech32, is refused.
  if (version === undefined || version > 16 || (version === 0) !== (withBech32 !== undefined)) {
    return null;
  }
  const program = bech32.fromWordsUnsafe(rest);
  if (program === undefined || program.length < 2 || program.length > 40) {
    return null;
  }
  if (version === 0 && program.length !== 20 && program.length !== 32) {
    return null;
  }
  return { version, program };
}

export function encodeSegwit(prefix: string, version: number, program: Uint8Array): string {
  const coder = version === 0 ? bech32 : bech32m;
  return coder.encode(prefix, [version, ...coder.toWords(program)]);
}
