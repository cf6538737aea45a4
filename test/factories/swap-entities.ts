import type { SwapEntity } from '#app/persistence';
import { buildSwap, swapViewRow, type RefreshedSwap } from '#app/swaps';
import { ADDRESSES } from './provider.js';

/**
 * A stored swap through the swaps lib's own `buildSwap`: unless `fields` say else, a live float
 * swap of org-1 at Changelly, 0.1 BTC to ETH, waiting, on provider transaction `tx-<id>`.
 */
export function swapEntity(fields: Partial<SwapEntity> & { id: string }): SwapEntity {
  return buildSwap({
    organizationId: 'org-1',
    provider: 'changelly',
    status: 'waiting',
    mode: 'float',
    from: 'btc',
    to: 'eth',
    amountFrom: '0.1',
    amountExpectedTo: '1.5',
    payinAddress: ADDRESSES.btc,
    payoutAddress: ADDRESSES.eth,
    providerTransactionId: `tx-${fields.id}`,
    createdAt: new Date('2026-01-01T00:00:00.000Z'),
    ...fields,
  });
}

/** `swap` as a poller's claim reads it: the swap as a partner reads it, its org's fee, how late. */
export function refreshedSwap(swap: SwapEntity, feePercent: string, lagMs = 0): RefreshedSwap {
  if (swap.providerTransactionId === null) {
    throw new Error(`swap ${swap.id} has no provider transaction to refresh`);
  }
  return {
    ...swapViewRow(swap),
    organizationId: swap.organizationId,
    provider: swap.provider,
    providerTransactionId: swap.providerTransactionId,
    feePercent,
    lagMs,
  };
}
