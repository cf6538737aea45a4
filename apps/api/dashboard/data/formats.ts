import { Decimal } from 'decimal.js';

/** A USD amount for people: thousands separated, two decimals, from a decimal string. */
export function usd(value: string): string {
  const [whole, fraction] = new Decimal(value).toFixed(2, Decimal.ROUND_DOWN).split('.');
  return `$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}

/** `2026-11-25 14:03 UTC` from an ISO timestamp; a dash for none. */
export function when(iso: string | null): string {
  return iso === null ? '—' : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** `btc → eth` */
export function pairLabel(from: string, to: string): string {
  return `${from} → ${to}`;
}
