import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository, type EntityManager } from 'typeorm';
import { type OrganizationStatus, type PayoutNetwork } from '#app/domain';
import { OrganizationEntity } from '#app/persistence';

export interface NewOrganization {
  name: string;
  feePercent: string;
  status: OrganizationStatus;
  providerActivated: boolean;
  payoutAddress: string | null;
  payoutNetwork: PayoutNetwork;
}

/** Where an organization's earnings are paid. */
export interface PayoutDestination {
  address: string | null;
  network: PayoutNetwork;
}

export type OrganizationPatch = Partial<Omit<NewOrganization, 'name'>> & { name?: string };

@Injectable()
export class OrganizationsRepository {
  constructor(
    @InjectRepository(OrganizationEntity)
    private readonly repository: Repository<OrganizationEntity>,
  ) {}

  create(organization: NewOrganization): Promise<OrganizationEntity> {
    return this.repository.save(this.repository.create(organization));
  }

  findById(id: string): Promise<OrganizationEntity | null> {
    return this.repository.findOneBy({ id });
  }

  /** The ids among `ids` that name an organization. */
  async existingIds(ids: string[]): Promise<string[]> {
    const found = await this.repository.find({ select: { id: true }, where: { id: In(ids) } });
    return found.map((o) => o.id);
  }

  findByName(name: string): Promise<OrganizationEntity | null> {
    return this.repository.findOneBy({ name });
  }

  list(): Promise<OrganizationEntity[]> {
    return this.repository.find({ order: { createdAt: 'ASC' } });
  }

  async update(id: string, patch: OrganizationPatch): Promise<OrganizationEntity | null> {
    if (Object.keys(patch).length > 0) {
      await this.repository.update({ id }, patch);
    }
    return this.findById(id);
  }

  /**
   * Sets the payout destination in the caller's transaction, the organization's row locked
   * first (as booking earnings locks it): a payout made due meanwhile sees either the old
   * destination or the new one, never half. Answers the previous one; null when there is no
   * such organization.
   */
  async setPayoutDestinationWithin(
    manager: EntityManager,
    id: string,
    destination: PayoutDestination,
  ): Promise<PayoutDestination | null> {
    const organizations = manager.getRepository(OrganizationEntity);
    const current = await organizations.findOne({
      where: { id },
      lock: { mode: 'pessimistic_write' },
    });
    if (!current) {
      return null;
    }
    await organizations.update(
      { id },
      { payoutAddress: destination.address, payoutNetwork: destination.network },
    );
    return { address: current.payoutAddress, network: current.payoutNetwork };
  }
}
