import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThanOrEqual, MoreThan, Repository } from 'typeorm';
import { DashboardPendingSignInEntity } from '#app/persistence';

/** The only writer of `dashboard_pending_sign_ins`. */
@Injectable()
export class PendingSignInsRepository {
  constructor(
    @InjectRepository(DashboardPendingSignInEntity)
    private readonly repository: Repository<DashboardPendingSignInEntity>,
  ) {}

  /** Stores the pending sign-in and drops the expired ones of everybody. */
  async insert(pending: DashboardPendingSignInEntity): Promise<void> {
    await this.repository.delete({ expiresAt: LessThanOrEqual(pending.createdAt) });
    await this.repository.insert(pending);
  }

  findLive(tokenHash: string, now: Date): Promise<DashboardPendingSignInEntity | null> {
    return this.repository.findOneBy({ tokenHash, expiresAt: MoreThan(now) });
  }

  /** Ends it; true for the one caller that did, so a pending sign-in completes once. */
  async delete(tokenHash: string): Promise<boolean> {
    const result = await this.repository.delete({ tokenHash });
    return result.affected === 1;
  }
}
