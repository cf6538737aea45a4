/**
 * The liquidity providers the service can route across (docs/decisions.md, "A second liquidity
 * provider"). Configuration names them in `PROVIDERS`; operators see them, partners never do.
 */
export const PROVIDER_NAMES = ['changelly', 'changenow'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export function isProviderName(value: string): value is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(value);
}
