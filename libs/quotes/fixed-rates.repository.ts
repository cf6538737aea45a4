import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { FixedRateEntity } from '#app/persistence';

export type NewFixedRate = Omit<FixedRateEntity, 'usedAt' | 'swapId' | 'createdAt'>;

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

  /** The organization's rate, whatever its state; another org's id reads as unknown. */
  findForOrganization(id: string, organizationId: string): Promise<FixedRateEntity | null> {
    return this.repository.findOneBy({ id, organizationId });
  }

  /**
   * Marks an unexpired, unused rate as used, atomically: of two racing swaps exactly one wins.
   * Returns false when the rate was unknown, expired or already used.
   */
  async consume(id: string, organizationId: string, swapId: string): Promise<boolean> {
    const result = await this.repository
      .createQueryBuilder()
      .update()
      .set({ usedAt: () => 'now()', swapId })
      .where('id = :id AND organization_id = :organizationId', { id, organizationId })
      .andWhere('used_at IS NULL AND expires_at > now()')
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Gives a rate back when the swap that took it could not be created upstream. */
  async release(id: string, swapId: string): Promise<void> {
    await this.repository.update({ id, swapId }, { usedAt: null, swapId: null });
  }
}
