import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { QueryFailedError, Repository } from 'typeorm';
import { DashboardPasskeyEntity } from '#app/persistence';

/** The only writer of `dashboard_passkeys`. Every lookup but the sign-in one takes the user. */
@Injectable()
export class PasskeysRepository {
  constructor(
    @InjectRepository(DashboardPasskeyEntity)
    private readonly repository: Repository<DashboardPasskeyEntity>,
  ) {}

  listForUser(userId: string): Promise<DashboardPasskeyEntity[]> {
    return this.repository.find({ where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  countForUser(userId: string): Promise<number> {
    return this.repository.countBy({ userId });
  }

  /** By credential id alone: a passkey sign-in learns the user from the passkey. */
  findById(id: string): Promise<DashboardPasskeyEntity | null> {
    return this.repository.findOneBy({ id });
  }

  /** False when the credential id is already registered (to anyone). */
  async insert(passkey: DashboardPasskeyEntity): Promise<boolean> {
    try {
      await this.repository.insert(passkey);
      return true;
    } catch (error) {
      if (error instanceof QueryFailedError && isUniqueViolation(error.driverError)) {
        return false;
      }
      throw error;
    }
  }

  async recordUse(id: string, counter: number, now: Date): Promise<void> {
    await this.repository.update({ id }, { counter, lastUsedAt: now });
  }

  async rename(userId: string, id: string, name: string): Promise<boolean> {
    const result = await this.repository.update({ id, userId }, { name });
    return result.affected === 1;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const result = await this.repository.delete({ id, userId });
    return result.affected === 1;
  }
}

function isUniqueViolation(driverError: unknown): boolean {
  return (
    typeof driverError === 'object' &&
    driverError !== null &&
    (driverError as { code?: unknown }).code === '23505'
  );
}
