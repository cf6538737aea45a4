import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { DashboardRecoveryCodeEntity } from '#app/persistence';

/** The only writer of `dashboard_recovery_codes`. */
@Injectable()
export class RecoveryCodesRepository {
  constructor(
    @InjectRepository(DashboardRecoveryCodeEntity)
    private readonly repository: Repository<DashboardRecoveryCodeEntity>,
  ) {}

  /** The user's codes become exactly these, in one transaction. */
  async replace(userId: string, digests: string[], now: Date): Promise<void> {
    await this.repository.manager.transaction(async (manager) => {
      const repository = manager.getRepository(DashboardRecoveryCodeEntity);
      await repository.delete({ userId });
      await repository.insert(
        digests.map((codeDigest) => ({ userId, codeDigest, usedAt: null, createdAt: now })),
      );
    });
  }

  /** Marks the unused code with this digest used; false when there is none. Atomic. */
  async use(userId: string, codeDigest: string, now: Date): Promise<boolean> {
    const result = await this.repository.update(
      { userId, codeDigest, usedAt: IsNull() },
      { usedAt: now },
    );
    return result.affected === 1;
  }

  countUnused(userId: string): Promise<number> {
    return this.repository.countBy({ userId, usedAt: IsNull() });
  }

  async deleteAll(userId: string): Promise<void> {
    await this.repository.delete({ userId });
  }
}
