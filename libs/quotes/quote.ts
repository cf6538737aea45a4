import type { OwnerScope, SwapMode } from '#app/domain';

/** A partner quote (spec, Quote). Amounts are decimal strings. */
export interface Quote {
  from: string;
  to: string;
  amountFrom: string;
  amountTo: string;
  networkFee: string;
  amountUserReceives: string;
  rate: string;
  fee: string | null;
  min: string;
  max: string;
  mode: SwapMode;
  rateId: string | null;
  expiresAt: string | null;
}

export interface QuoteRequestInput {
  from: string;
  to: string;
  amountFrom: unknown;
  mode?: SwapMode;
}

/**
 * Whom a quote is for: the org's fee is applied like a rate markup (docs/decisions.md, "Partner fee
 * on quotes"); a fixed rate redeems only in the mode it was quoted in.
 */
export interface QuotingParty extends OwnerScope {
  feePercent: string;
}
