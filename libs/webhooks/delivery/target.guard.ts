import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { WEBHOOK_ENDPOINT_RULES } from '../webhook-endpoint.rules.js';

/** Why an address may not receive webhooks. */
export type RefusedAddressClass =
  'unspecified' | 'loopback' | 'private' | 'link_local' | 'cgnat' | 'multicast' | 'reserved';

type Range = readonly [prefix: bigint, bits: number, width: 32 | 128, refused: RefusedAddressClass];

function v4(text: string): bigint {
  return text.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

/** IPv4 ranges that are not public unicast (IANA special-purpose registry). */
const V4_RANGES: Range[] = [
  [v4('0.0.0.0'), 8, 32, 'unspecified'],
  [v4('10.0.0.0'), 8, 32, 'private'],
  [v4('100.64.0.0'), 10, 32, 'cgnat'],
  [v4('127.0.0.0'), 8, 32, 'loopback'],
  [v4('169.254.0.0'), 16, 32, 'link_local'],
  [v4('172.16.0.0'), 12, 32, 'private'],
  [v4('192.0.0.0'), 24, 32, 'reserved'],
  [v4('192.0.2.0'), 24, 32, 'reserved'],
  [v4('192.88.99.0'), 24, 32, 'reserved'],
  [v4('192.168.0.0'), 16, 32, 'private'],
  [v4('198.18.0.0'), 15, 32, 'reserved'],
  [v4('198.51.100.0'), 24, 32, 'reserved'],
  [v4('203.0.113.0'), 24, 32, 'reserved'],
  [v4('224.0.0.0'), 4, 32, 'multicast'],
  [v4('240.0.0.0'), 4, 32, 'reserved'],
];

/** Parses any IPv6 text form (`::`, embedded dotted quad) into its 128-bit value. */
function v6(text: string): bigint {
  let address = text.split('%')[0];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    const quad = v4(dotted[1]);
    address = `${address.slice(0, dotted.index)}${(quad >> 16n).toString(16)}:${(quad & 0xffffn).toString(16)}`;
  }
  const [head, tail] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [
    ...headGroups,
    ...Array<string>(tail === undefined ? 0 : missing).fill('0'),
    ...tailGroups,
  ];
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n);
}

/**
 * IPv6 is judged by an allow-list: only global unicast (`2000::/3`) may receive webhooks, less
 * the special-purpose blocks inside it (IANA registry). Whatever lies outside is refused; these
 * ranges only name why, for the message.
 */
const V6_GLOBAL_UNICAST: readonly [bigint, number] = [v6('2000::'), 3];
const V6_SPECIAL_IN_GLOBAL: Range[] = [
  // IETF protocol assignments, Teredo (an IPv4 address in disguise) among them.
  [v6('2001::'), 23, 128, 'reserved'],
  [v6('2001:db8::'), 32, 128, 'reserved'],
  [v6('3fff::'), 20, 128, 'reserved'],
];
const V6_NAMED: Range[] = [
  [v6('::'), 128, 128, 'unspecified'],
  [v6('::1'), 128, 128, 'loopback'],
  // Local-use NAT64 (RFC 8215): translated to whatever the local network routes to.
  [v6('64:ff9b:1::'), 48, 128, 'private'],
  [v6('fc00::'), 7, 128, 'private'],
  [v6('fe80::'), 10, 128, 'link_local'],
  [v6('fec0::'), 10, 128, 'private'],
  [v6('ff00::'), 8, 128, 'multicast'],
];

/**
 * IPv6 ranges that carry an IPv4 address in their low 32 bits and reach it (IPv4-mapped, the
 * well-known NAT64 prefix): judged by that address. Other embeddings (IPv4-compatible,
 * IPv4-translated `::ffff:0:0:0/96`) lie outside global unicast and are refused.
 */
const V4_CARRIERS: readonly (readonly [bigint, number])[] = [
  [v6('::ffff:0:0'), 96],
  [v6('64:ff9b::'), 96],
];
const SIX_TO_FOUR = v6('2002::');

function inRange(value: bigint, prefix: bigint, bits: number, width: number): boolean {
  const shift = BigInt(width - bits);
  return value >> shift === prefix >> shift;
}

function classifyV4(value: bigint): RefusedAddressClass | null {
  const range = V4_RANGES.find(([prefix, bits]) => inRange(value, prefix, bits, 32));
  return range ? range[3] : null;
}

/**
 * The class of a non-public address, or null for a public unicast address. IPv4 by its special
 * ranges; IPv6 by an allow-list, global unicast less its special blocks, except the forms that
 * reach an IPv4 address (IPv4-mapped, well-known NAT64, 6to4), judged by the address they embed.
 * Text that is no IP address at all is refused as `reserved`.
 */
export function classifyAddress(address: string): RefusedAddressClass | null {
  const family = isIP(address.split('%')[0]);
  if (family === 4) {
    return classifyV4(v4(address));
  }
  if (family !== 6) {
    return 'reserved';
  }
  const value = v6(address);
  for (const [prefix, bits] of V4_CARRIERS) {
    if (inRange(value, prefix, bits, 128)) {
      return classifyV4(value & 0xffffffffn);
    }
  }
  if (inRange(value, SIX_TO_FOUR, 16, 128)) {
    return classifyV4((value >> 80n) & 0xffffffffn);
  }
  if (inRange(value, V6_GLOBAL_UNICAST[0], V6_GLOBAL_UNICAST[1], 128)) {
    const special = V6_SPECIAL_IN_GLOBAL.find(([prefix, bits]) =>
      inRange(value, prefix, bits, 128),
    );
    return special ? special[3] : null;
  }
  const named = V6_NAMED.find(([prefix, bits]) => inRange(value, prefix, bits, 128));
  return named ? named[3] : 'reserved';
}

/** Where webhooks may go: set by `WEBHOOK_ALLOW_PRIVATE_TARGETS` and the endpoint's mode. */
export interface WebhookTargetPolicy {
  /** Private, loopback and other non-public addresses, and `http://` in live mode, allowed. */
  allowPrivateTargets: boolean;
}

export type TargetVerdict = { allowed: true } | { allowed: false; reason: string };

const MAX_URL_LENGTH = WEBHOOK_ENDPOINT_RULES.urlMaxLength;

/** The bracket-free host of a URL (`[::1]` → `::1`). */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * What an endpoint URL must be, before any name is resolved: absolute `https://` (or `http://` in
 * test mode, or anywhere with private targets allowed), no credentials in it, and no literal
 * address that is not public.
 */
export function checkWebhookUrl(
  raw: string,
  livemode: boolean,
  policy: WebhookTargetPolicy,
): TargetVerdict {
  if (raw.length > MAX_URL_LENGTH) {
    return { allowed: false, reason: `must be at most ${MAX_URL_LENGTH} characters` };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { allowed: false, reason: 'must be an absolute URL' };
  }
  const httpAllowed = !livemode || policy.allowPrivateTargets;
  if (url.protocol !== 'https:' && !(httpAllowed && url.protocol === 'http:')) {
    return {
      allowed: false,
      reason: httpAllowed ? 'must use https:// or http://' : 'must use https:// in live mode',
    };
  }
  if (url.username || url.password) {
    return { allowed: false, reason: 'must not carry credentials' };
  }
  const host = hostOf(url);
  if (isIP(host) !== 0) {
    return checkAddress(host, policy);
  }
  return { allowed: true };
}

/** Whether a resolved or connected address may receive webhooks. */
export function checkAddress(address: string, policy: WebhookTargetPolicy): TargetVerdict {
  const refused = policy.allowPrivateTargets ? null : classifyAddress(address);
  return refused
    ? { allowed: false, reason: `resolves to a ${refused.replace('_', '-')} address` }
    : { allowed: true };
}

/** `dns.lookup` with `all: true`, as a promise: the seam the tests replace. */
export type ResolveAll = (hostname: string) => Promise<LookupAddress[]>;

export const resolveWithDns: ResolveAll = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

/**
 * Resolves the URL's host and checks every address it resolves to: one private address among
 * public ones is enough to refuse, since a connection may pick any of them.
 */
export async function checkWebhookTarget(
  raw: string,
  livemode: boolean,
  policy: WebhookTargetPolicy,
  resolveAll: ResolveAll = resolveWithDns,
): Promise<TargetVerdict> {
  const verdict = checkWebhookUrl(raw, livemode, policy);
  if (!verdict.allowed) {
    return verdict;
  }
  const host = hostOf(new URL(raw));
  if (isIP(host) !== 0) {
    return verdict;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host);
  } catch {
    return { allowed: false, reason: 'has a host that does not resolve' };
  }
  if (addresses.length === 0) {
    return { allowed: false, reason: 'has a host that does not resolve' };
  }
  for (const { address } of addresses) {
    const check = checkAddress(address, policy);
    if (!check.allowed) {
      return check;
    }
  }
  return { allowed: true };
}
