import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { type OrganizationStatus, type PayoutNetwork } from '#app/domain';
import { EntityColumns, OrganizationEntity, queryRows } from '#app/persistence';

/** The steps of "Get started" kept as a timestamp on the organization, and their columns. */
const FIRST_COLUMNS = {
  testQuote: 'first_test_quote_at',
  webhookDelivered: 'first_webhook_delivered_at',
} as const;

export type RecordedFirst = keyof typeof FIRST_COLUMNS;

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

/** The only writer of `organizations`. */
@Injectable()
export class OrganizationsRepository {
  private readonly columns: EntityColumns<OrganizationEntity>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.columns = new EntityColumns(dataSource, OrganizationEntity);
  }

  create(organization: NewOrganization): Promise<OrganizationEntity> {
    return this.columns.insert(this.dataSource, organization);
  }

  findById(id: string): Promise<OrganizationEntity | null> {
    return this.columns.readOne(
      this.dataSource,
      `SELECT ${this.columns.list} FROM organizations WHERE id = $1`,
      [id],
    );
  }

  /** The ids among `ids` that name an organization. */
  async existingIds(ids: string[]): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `SELECT id FROM organizations WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return rows.map((row) => row.id);
  }

  findByName(name: string): Promise<OrganizationEntity | null> {
    return this.columns.readOne(
      this.dataSource,
      `SELECT ${this.columns.list} FROM organizations WHERE name = $1`,
      [name],
    );
  }

  list(): Promise<OrganizationEntity[]> {
    return this.columns.read(
      this.dataSource,
      `SELECT ${this.columns.list} FROM organizations ORDER BY created_at`,
    );
  }

  /** Applies the fields of `patch` that are set; null when there is no such organization. */
  async update(id: string, patch: OrganizationPatch): Promise<OrganizationEntity | null> {
    const fields = this.columns.fields(patch, 2);
    if (fields.values.length === 0) {
      return this.findById(id);
    }
    return this.columns.readOne(
      this.dataSource,
      `UPDATE organizations SET ${fields.assignments}, updated_at = now() WHERE id = $1
       RETURNING ${this.columns.list}`,
      [id, ...fields.values],
    );
  }

  /** Records the organization's first `first` (a "Get started" step); later calls change nothing. */
  async markFirst(id: string, first: RecordedFirst): Promise<void> {
    const column = FIRST_COLUMNS[first];
    await queryRows(
      this.dataSource,
      `UPDATE organizations SET ${column} = now() WHERE id = $1 AND ${column} IS NULL`,
      [id],
    );
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
    const current = await this.columns.readOne(
      manager,
      `SELECT ${this.columns.list} FROM organizations WHERE id = $1 FOR UPDATE`,
      [id],
    );
    if (!current) {
      return null;
    }
    await queryRows(
      manager,
      `UPDATE organizations SET payout_address = $2, payout_network = $3, updated_at = now()
        WHERE id = $1`,
      [id, destination.address, destination.network],
    );
    return { address: current.payoutAddress, network: current.payoutNetwork };
  }
}
