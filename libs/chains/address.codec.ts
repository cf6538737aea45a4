import { base58, bech32, type BytesCoder } from '@scure/base';
import { base58check, xrpBase58check } from './base58check.js';
import { decodeCashAddr, encodeCashAddr } from './cashaddr.js';
import { checkEvmAddress, toChecksumAddress } from './eip55.js';
import { decodeSegwit, encodeSegwit } from './segwit.js';
import { encodeStellarAccount, isStellarAccount } from './strkey.js';

/** Blockchains whose addresses the service can check strictly (names as the provider spells them). */
export const CHAINS = [
  'bitcoin',
  'litecoin',
  'bitcoin_cash',
  'doge',
  'dash',
  'ethereum',
  'ethereum_classic',
  'binance_smart_chain',
  'polygon',
  'tron',
  'solana',
  'cardano',
  'ripple',
  'stellar',
] as const;

export type Chain = (typeof CHAINS)[number];

/** The longest address accepted on any chain; Cardano's run past bech32's usual 90. */
const MAX_ADDRESS_LENGTH = 130;

export const CHAIN_NAMES: Record<Chain, string> = {
  bitcoin: 'Bitcoin',
  litecoin: 'Litecoin',
  bitcoin_cash: 'Bitcoin Cash',
  doge: 'Dogecoin',
  dash: 'Dash',
  ethereum: 'Ethereum',
  ethereum_classic: 'Ethereum Classic',
  binance_smart_chain: 'BNB Smart Chain',
  polygon: 'Polygon',
  tron: 'TRON',
  solana: 'Solana',
  cardano: 'Cardano',
  ripple: 'XRP Ledger',
  stellar: 'Stellar',
};

export interface AddressCheck {
  valid: boolean;
  /** Why the address was refused; absent when valid. */
  reason?: string;
}

/** Source of randomness for generated addresses, so a seeded generator makes them reproducible. */
export type RandomBytes = (length: number) => Uint8Array;

export function isChain(value: string): value is Chain {
  return (CHAINS as readonly string[]).includes(value);
}

const OK: AddressCheck = { valid: true };

function refuse(chain: Chain, detail: string): AddressCheck {
  return { valid: false, reason: `not a valid ${CHAIN_NAMES[chain]} address: ${detail}` };
}

/** Base58Check with a one-byte version from `versions` and a 20-byte hash. */
function legacy(address: string, versions: number[], coder: BytesCoder = base58check): boolean {
  let payload: Uint8Array;
  try {
    payload = coder.decode(address);
  } catch {
    return false;
  }
  return payload.length === 21 && versions.includes(payload[0] ?? -1);
}

function utxo(chain: Chain, address: string, versions: number[], hrp?: string): AddressCheck {
  if (hrp !== undefined && address.toLowerCase().startsWith(`${hrp}1`)) {
    return decodeSegwit(hrp, address) ? OK : refuse(chain, 'bech32 checksum or program mismatch');
  }
  return legacy(address, versions) ? OK : refuse(chain, 'base58check checksum or version mismatch');
}

function cardano(address: string): AddressCheck {
  const decoded = bech32.decodeUnsafe(address, MAX_ADDRESS_LENGTH);
  if (decoded === undefined || decoded.prefix !== 'addr') {
    return refuse('cardano', 'expected a bech32 addr1… address');
  }
  const bytes = bech32.fromWordsUnsafe(decoded.words);
  const header = bytes?.[0];
  if (bytes === undefined || header === undefined || (header & 0x0f) !== 1) {
    return refuse('cardano', 'not a mainnet address');
  }
  const type = header >> 4;
  const lengthOk =
    type <= 3
      ? bytes.length === 57
      : type <= 5
        ? bytes.length >= 30
        : type <= 7
          ? bytes.length === 29
          : false;
  return lengthOk ? OK : refuse('cardano', 'unexpected payload length');
}

function solana(address: string): AddressCheck {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address)) {
    return refuse('solana', 'expected 32 to 44 base58 characters');
  }
  return base58.decode(address).length === 32 ? OK : refuse('solana', 'not a 32-byte public key');
}

/**
 * The strict, checksum-verifying check: an address passes only in the exact form the chain
 * defines (no surrounding whitespace, no case-folding where the checksum depends on case).
 */
export function validateAddress(chain: string, address: string): AddressCheck {
  if (!isChain(chain)) {
    return { valid: false, reason: `addresses on ${chain} cannot be checked` };
  }
  if (address.length === 0 || address.length > MAX_ADDRESS_LENGTH || /\s/.test(address)) {
    return refuse(chain, 'empty, too long or containing whitespace');
  }
  switch (chain) {
    case 'bitcoin':
      return utxo(chain, address, [0x00, 0x05], 'bc');
    case 'litecoin':
      return utxo(chain, address, [0x30, 0x32, 0x05], 'ltc');
    case 'doge':
      return utxo(chain, address, [0x1e, 0x16]);
    case 'dash':
      return utxo(chain, address, [0x4c, 0x10]);
    case 'bitcoin_cash':
      if (/^[13]/.test(address)) {
        return utxo(chain, address, [0x00, 0x05]);
      }
      return decodeCashAddr(address) ? OK : refuse(chain, 'CashAddr checksum mismatch');
    case 'ethereum':
    case 'ethereum_classic':
    case 'binance_smart_chain':
    case 'polygon': {
      const check = checkEvmAddress(address);
      return check.valid ? OK : refuse(chain, check.reason ?? 'invalid');
    }
    case 'tron':
      return address.startsWith('T') && legacy(address, [0x41])
        ? OK
        : refuse(chain, 'base58check checksum or version mismatch');
    case 'solana':
      return solana(address);
    case 'cardano':
      return cardano(address);
    case 'ripple':
      return address.startsWith('r') && legacy(address, [0x00], xrpBase58check)
        ? OK
        : refuse(chain, 'base58check checksum mismatch');
    case 'stellar':
      return isStellarAccount(address) ? OK : refuse(chain, 'StrKey checksum mismatch');
  }
}

function withVersion(version: number, bytes: Uint8Array): Uint8Array {
  return Uint8Array.from([version, ...bytes]);
}

/** A fresh address in the chain's most common current format; it passes `validateAddress`. */
export function generateAddress(chain: Chain, random: RandomBytes): string {
  switch (chain) {
    case 'bitcoin':
      return encodeSegwit('bc', 0, random(20));
    case 'litecoin':
      return encodeSegwit('ltc', 0, random(20));
    case 'doge':
      return base58check.encode(withVersion(0x1e, random(20)));
    case 'dash':
      return base58check.encode(withVersion(0x4c, random(20)));
    case 'bitcoin_cash':
      return encodeCashAddr('p2pkh', random(20));
    case 'ethereum':
    case 'ethereum_classic':
    case 'binance_smart_chain':
    case 'polygon':
      return toChecksumAddress(`0x${Buffer.from(random(20)).toString('hex')}`);
    case 'tron':
      return base58check.encode(withVersion(0x41, random(20)));
    case 'solana': {
      const key = random(32);
      // A leading zero byte would shorten the text below the usual 32 characters.
      key[0] = (key[0] ?? 0) | 1;
      return base58.encode(key);
    }
    case 'cardano':
      return bech32.encode(
        'addr',
        bech32.toWords(withVersion(0x01, random(56))),
        MAX_ADDRESS_LENGTH,
      );
    case 'ripple':
      return xrpBase58check.encode(withVersion(0x00, random(20)));
    case 'stellar':
      return encodeStellarAccount(random(32));
  }
}
