import { keccak_256 } from '@noble/hashes/sha3.js';

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** EIP-55 mixed-case checksum of a 20-byte hex address. */
export function toChecksumAddress(address: string): string {
  const hex = address.toLowerCase().replace(/^0x/, '');
  const hash = Buffer.from(keccak_256(new TextEncoder().encode(hex))).toString('hex');
  let out = '0x';
  for (let i = 0; i < hex.length; i++) {
    const char = hex[i] ?? '';
    out += parseInt(hash[i] ?? '0', 16) >= 8 ? char.toUpperCase() : char;
  }
  return out;
}

/**
 * An EVM address. Single-case hex carries no checksum (EIP-55 keeps it valid); mixed case must
 * match the checksum exactly, which is what catches a mistyped character.
 */
export function checkEvmAddress(address: string): { valid: boolean; reason?: string } {
  if (!HEX_ADDRESS.test(address)) {
    return { valid: false, reason: 'must be 0x followed by 40 hex characters' };
  }
  const body = address.slice(2);
  if (body === body.toLowerCase() || body === body.toUpperCase()) {
    return { valid: true };
  }
  return toChecksumAddress(address) === address
    ? { valid: true }
    : { valid: false, reason: 'EIP-55 checksum mismatch' };
}
