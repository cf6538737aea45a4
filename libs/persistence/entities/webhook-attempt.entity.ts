import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** What one delivery attempt got back: an HTTP status or an error, and how long it took. */
@Entity({ name: 'webhook_attempts' })
export class WebhookAttemptEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'delivery_id', type: 'bigint' })
  deliveryId: string;

  @Column({ name: 'endpoint_id', type: 'varchar', length: 27 })
  endpointId: string;

  @Column({ name: 'event_id', type: 'varchar', length: 28 })
  eventId: string;

  @Column({ type: 'integer' })
  attempt: number;

  @Column({ name: 'http_status', type: 'integer', nullable: true })
  httpStatus: number | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  error: string | null;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
