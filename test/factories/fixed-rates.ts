import { randomUUID } from 'node:crypto';
import { FixedRateEntity } from '#app/persistence';

/** An unused live rate of org-1, 0.1 BTC for 1.51 ETH, valid a minute from now. */
export function fixedRate(fields: Partial<FixedRateEntity> = {}): FixedRateEntity {
  return Object.assign(new FixedRateEntity(), {
    id: randomUUID(),
    providerRateId: 'provider-1',
    organizationId: 'org-1',
    livemode: true,
    provider: 'changelly',
    from: 'btc',
    to: 'eth',
    amountFrom: '0.1',
    amountTo: '1.51',
    networkFee: '0.002',
    rate: '15.1',
    expiresAt: new Date(Date.now() + 60_000),
    usedAt: null,
    swapId: null,
    createdAt: new Date(),
    ...fields,
  } satisfies FixedRateEntity);
}
