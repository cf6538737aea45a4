import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { SwapEntity } from '#app/persistence';

export interface SwapListQuery {
  limit: number;
  offset: number;
  partnerReferenceId?: string;
}

/**
 * Reads run as plain SQL mapped through the entity's own column metadata: the partner read
 * paths are the hottest in the service, and the query builder cost more than the query.
 */
@Injectable()
export class SwapsRepository {
  private readonly columns: { property: string; column: string }[];
  private readonly selectList: string;

  constructor(@InjectRepository(SwapEntity) private readonly repository: Repository<SwapEntity>) {
    this.columns = repository.metadata.columns.map((c) => ({
      property: c.propertyName,
      column: c.databaseName,
    }));
    this.selectList = this.columns.map((c) => `"${c.column}"`).join(', ');
  }

  async insert(manager: EntityManager, swap: SwapEntity): Promise<void> {
    await manager.getRepository(SwapEntity).insert(swap);
  }

  /** Only the organization's own swap; another org's id reads as unknown. */
  async findByIdForOrg(id: string, organizationId: string): Promise<SwapEntity | null> {
    const rows = await this.repository.query<Record<string, unknown>[]>(
      `SELECT ${this.selectList} FROM swaps WHERE id = $1 AND organization_id = $2`,
      [id, organizationId],
    );
    return rows.length > 0 ? this.toEntity(rows[0]) : null;
  }

  findByProviderTransactionId(providerTransactionId: string): Promise<SwapEntity | null> {
    return this.repository.findOneBy({ providerTransactionId });
  }

  async listForOrg(organizationId: string, query: SwapListQuery): Promise<SwapEntity[]> {
    const byReference = query.partnerReferenceId !== undefined;
    const rows = await this.repository.query<Record<string, unknown>[]>(
      `SELECT ${this.selectList} FROM swaps
        WHERE organization_id = $1 ${byReference ? 'AND partner_reference_id = $4' : ''}
        ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [
        organizationId,
        query.limit,
        query.offset,
        ...(byReference ? [query.partnerReferenceId] : []),
      ],
    );
    return rows.map((row) => this.toEntity(row));
  }

  private toEntity(row: Record<string, unknown>): SwapEntity {
    const swap = new SwapEntity();
    const target = swap as unknown as Record<string, unknown>;
    for (const { property, column } of this.columns) {
      target[property] = row[column];
    }
    return swap;
  }

  /** Inserts legacy swaps; ids that exist already are skipped, never overwritten. */
  async importMissing(swaps: SwapEntity[]): Promise<number> {
    if (swaps.length === 0) {
      return 0;
    }
    const result = await this.repository
      .createQueryBuilder()
      .insert()
      .values(swaps)
      .orIgnore()
      .returning('id')
      .execute();
    return (result.raw as unknown[]).length;
  }
}
