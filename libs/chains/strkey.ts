import { base32nopad } from '@scure/base';

/** Stellar account id ("G…"): version byte 6 << 3, a 32-byte ed25519 key, CRC16-XModem (LE). */
const ACCOUNT_VERSION = 6 << 3;

function crc16Xmodem(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

export function encodeStellarAccount(publicKey: Uint8Array): string {
  const payload = Uint8Array.from([ACCOUNT_VERSION, ...publicKey]);
  const crc = crc16Xmodem(payload);
  return base32nopad.encode(Uint8Array.from([...payload, crc & 0xff, crc >> 8]));
}

export function isStellarAccount(address: string): boolean {
  if (!/^G[A-Z2-7]{55}$/.test(address)) {
    return false;
  }
  // 56 letters of the alphabet are exactly 35 bytes, so this cannot throw.
  const raw = base32nopad.decode(address);
  if (raw[0] !== ACCOUNT_VERSION) {
    return false;
  }
  const crc = crc16Xmodem(raw.subarray(0, 33));
  return raw[33] === (crc & 0xff) && raw[34] === crc >> 8;
}
