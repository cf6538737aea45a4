import type { OwnerScope } from '#app/domain';
import type { FixedRateEntity } from '#app/persistence';
import type { FixedRatesRepository } from '#app/quotes';
import { fixedRate } from '../factories/fixed-rates.js';

/** `fixed_rates` in memory: a rate is spent once, by the first swap that takes it, before it expires. */
export class FakeFixedRates implements Pick<FixedRatesRepository, 'findForOwner' | 'consume'> {
  readonly rates: FixedRateEntity[] = [];

  /** A new rate quoted to `owner`, the provider's id numbered in order. */
  quote(owner: OwnerScope, fields: Partial<FixedRateEntity> = {}): FixedRateEntity {
    const rate = fixedRate({
      providerRateId: `provider-${this.rates.length + 1}`,
      organizationId: owner.organizationId,
      livemode: owner.livemode,
      ...fields,
    });
    this.rates.push(rate);
    return rate;
  }

  findForOwner(id: string, owner: OwnerScope): Promise<FixedRateEntity | null> {
    return Promise.resolve(this.rates.find((r) => r.id === id && owns(owner, r)) ?? null);
  }

  consume(id: string, owner: OwnerScope, swapId: string): Promise<boolean> {
    const rate = this.rates.find(
      (r) =>
        r.id === id && owns(owner, r) && r.usedAt === null && r.expiresAt.getTime() > Date.now(),
    );
    if (rate) {
      Object.assign(rate, { usedAt: new Date(), swapId });
    }
    return Promise.resolve(rate !== undefined);
  }
}

function owns(owner: OwnerScope, rate: FixedRateEntity): boolean {
  return rate.organizationId === owner.organizationId && rate.livemode === owner.livemode;
}
