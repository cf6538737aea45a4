import { isTerminal } from '#app/domain';
import { SwapEntity } from '#app/persistence';

/** What every stored swap has; everything else starts null unless given. */
export type NewSwap = Pick<
  SwapEntity,
  | 'id'
  | 'organizationId'
  | 'status'
  | 'mode'
  | 'from'
  | 'to'
  | 'amountFrom'
  | 'payinAddress'
  | 'payoutAddress'
  | 'createdAt'
  | 'provider'
> &
  Partial<SwapEntity>;

/**
 * A swap row as created or imported: unknown settlement data null, not leased, due for its first
 * poll at once unless it is already terminal.
 */
export function buildSwap(swap: NewSwap): SwapEntity {
  return Object.assign(new SwapEntity(), {
    livemode: true,
    credentialId: null,
    idempotencyKey: null,
    providerTransactionId: null,
    amountExpectedTo: null,
    providerExpectedTo: null,
    amountActualFrom: null,
    amountActualTo: null,
    networkFee: null,
    actualNetworkFee: null,
    rate: null,
    amountAnomalyPct: null,
    refundAddress: null,
    payinHash: null,
    payoutHash: null,
    refundHash: null,
    moneyReceivedAt: null,
    moneySentAt: null,
    partnerReferenceId: null,
    payTill: null,
    fixedRateId: null,
    updatedAt: swap.createdAt,
    lastSeenAt: null,
    nextPollAt: isTerminal(swap.status) ? null : swap.createdAt,
    leaseOwner: null,
    leaseUntil: null,
    ...swap,
  } satisfies SwapEntity);
}
