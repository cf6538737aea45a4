import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Raw, Repository } from 'typeorm';
import type { OwnerScope } from '#app/domain';
import { FixedRateEntity } from '#app/persistence';

export type NewFixedRate = Omit<FixedRateEntity, 'usedAt' | 'swapId' | 'createdAt'>;

/**
 * The fixed-rate aggregate (docs/decisions.md, "Fixed rate ids"), the only writer of `fixed_rates`;
 * TypeORM's repository API, with the database clock wherever validity is decided.
 */
@Injectable()
export class FixedRatesRepository {
  constructor(
    @InjectRepository(FixedRateEntity) private readonly repository: Repository<FixedRateEntity>,
  ) {}

  async record(rate: NewFixedRate): Promise<FixedRateEntity> {
    return this.repository.save(
      this.repository.create({ ...rate, usedAt: null, swapId: null, createdAt: new Date() }),
    );
  }

  /** The owner's rate, whatever its state; another org's or mode's id reads as unknown. */
  findForOwner(id: string, owner: OwnerScope): Promise<FixedRateEntity | null> {
    return this.repository.findOneBy({
      id,
      organizationId: owner.organizationId,
      livemode: owner.livemode,
    });
  }

  /**
   * Marks an unexpired, unused rate as used, atomically: of two racing swaps exactly one wins.
   * Returns false when the rate was unknown, expired or already used.
   */
  async consume(id: string, owner: OwnerScope, swapId: string): Promise<boolean> {
    const result = await this.repository.update(
      {
        id,
        organizationId: owner.organizationId,
        livemode: owner.livemode,
        usedAt: IsNull(),
        expiresAt: Raw((column) => `${column} > now()`),
      },
      { usedAt: () => 'now()', swapId },
    );
    return (result.affected ?? 0) > 0;
  }

  /**
   * Rates that expired unused a day ago (housekeeping); used rates stay, a swap refers to them.
   * Returns how many were deleted.
   */
  async purgeExpired(): Promise<number> {
    const result = await this.repository.delete({
      usedAt: IsNull(),
      expiresAt: Raw((column) => `${column} < now() - interval '1 day'`),
    });
    return result.affected ?? 0;
  }
}
