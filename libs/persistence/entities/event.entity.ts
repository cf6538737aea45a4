import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A partner-facing event (docs/decisions.md, "Events are recorded by one recorder, the outbox bound
 * by the apps"), stored in the transaction that made the change it reports. `seq` and the `xid8`
 * column `xid` (the writing transaction's id, which TypeORM has no type for, so it is read in SQL
 * only) order the feed; `id` (`evt_` + 24 hex) is what partners see.
 */
@Entity({ name: 'events' })
export class EventEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  seq: string;

  @Column({ type: 'varchar', length: 28, unique: true })
  id: string;

  @Column({ name: 'organization_id', type: 'uuid' })
  organizationId: string;

  @Column({ type: 'boolean' })
  livemode: boolean;

  @Column({ type: 'varchar', length: 32 })
  type: string;

  @Column({ name: 'swap_id', type: 'varchar', length: 64, nullable: true })
  swapId: string | null;

  /**
   * The Event's `data`: the swap resource right after the change and its previous status. `json`,
   * not `jsonb`, so the text comes back with its keys in the order the resource renders them.
   */
  @Column({ type: 'json' })
  data: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
