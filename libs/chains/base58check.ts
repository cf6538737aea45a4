import { sha256 } from '@noble/hashes/sha2.js';
import { base58, base58xrp, createBase58check, type BytesCoder } from '@scure/base';

/** Base58Check as Bitcoin defines it: the payload (version bytes included) and 4 bytes of SHA-256². */
export const base58check: BytesCoder = createBase58check(sha256);

/**
 * The XRP Ledger's Base58Check: the same bytes and checksum, lettered in Ripple's alphabet (which is
 * why its addresses start with `r`). `createBase58check` only speaks Bitcoin's alphabet, so the
 * bytes go through it and are re-lettered; both base58 coders map bytes to text one to one.
 */
export const xrpBase58check: BytesCoder = {
  encode: (payload) => base58xrp.encode(base58.decode(base58check.encode(payload))),
  decode: (text) => base58check.decode(base58.encode(base58xrp.decode(text))),
};
