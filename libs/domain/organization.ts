import { Decimal } from 'decimal.js';

export const ORGANIZATION_STATUSES = ['pending_review', 'active', 'suspended', 'rejected'] as const;
export type OrganizationStatus = (typeof ORGANIZATION_STATUSES)[number];

/** Earnings are paid in USDT on TRON (TRC-20, the default) or Ethereum (ERC-20). */
export const PAYOUT_NETWORKS = ['trc20', 'erc20'] as const;
export type PayoutNetwork = (typeof PAYOUT_NETWORKS)[number];

/** The chain a payout address must belong to, per network. */
export const PAYOUT_CHAINS: Readonly<Record<PayoutNetwork, string>> = {
  trc20: 'tron',
  erc20: 'ethereum',
};

/** What an organization starts with unless the operator says otherwise. */
export const ORGANIZATION_DEFAULTS = {
  status: 'pending_review',
  providerActivated: false,
  payoutAddress: null,
  payoutNetwork: 'trc20',
} as const satisfies {
  status: OrganizationStatus;
  providerActivated: boolean;
  payoutAddress: null;
  payoutNetwork: PayoutNetwork;
};

const FEE_PERCENT_PATTERN = /^\d+(\.\d{1,8})?$/;
const MAX_FEE_PERCENT = new Decimal(4);

/**
 * The canonical decimal string of a partner fee in percent (0–4, at most 8 decimals;
 * docs/decisions.md, "Partner fee on quotes"), or null when the value is not one. A JSON number
 * (accepted on the admin surface) is turned into its shortest decimal form at once and never
 * computed with.
 */
export function normalizeFeePercent(value: unknown): string | null {
  let text: unknown = value;
  if (typeof value === 'number') {
    text = Number.isFinite(value) ? new Decimal(value).toFixed() : null;
  }
  if (typeof text !== 'string' || !FEE_PERCENT_PATTERN.test(text)) {
    return null;
  }
  const fee = new Decimal(text);
  return fee.lte(MAX_FEE_PERCENT) ? fee.toFixed() : null;
}

/**
 * Live credentials move real money; test credentials make swaps against the sandbox provider that
 * never earn anything, so partners integrate end to end before going live (docs/decisions.md, "Test
 * mode").
 */
export const CREDENTIAL_MODES = ['live', 'test'] as const;
export type CredentialMode = (typeof CREDENTIAL_MODES)[number];

/**
 * Whose data a partner request reads and writes: one organization, in one mode. A test
 * credential never sees live swaps or rates, nor a live one test ones.
 */
export interface OwnerScope {
  organizationId: string;
  livemode: boolean;
}

/**
 * Whether an organization in `status` may use (and be issued) credentials of a mode: live ones
 * only while active; test ones also while under review, so partners integrate before approval.
 */
export function modeUsableIn(status: OrganizationStatus, livemode: boolean): boolean {
  return status === 'active' || (status === 'pending_review' && !livemode);
}
