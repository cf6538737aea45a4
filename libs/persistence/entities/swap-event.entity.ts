import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One status transition of a swap, with its source (poller, api, import). */
@Entity({ name: 'swap_events' })
export class SwapEventEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'swap_id', type: 'varchar', length: 64 })
  swapId: string;

  @Column({ name: 'from_status', type: 'varchar', length: 16, nullable: true })
  fromStatus: string | null;

  @Column({ name: 'to_status', type: 'varchar', length: 16 })
  toStatus: string;

  @Column({ type: 'varchar', length: 32 })
  source: string;

  @Column({ type: 'jsonb', nullable: true })
  details: Record<string, unknown> | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
