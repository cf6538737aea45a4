import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** One event owed to one endpoint: the webhook outbox row, leased by a poller while it sends. */
@Entity({ name: 'webhook_deliveries' })
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'endpoint_id', type: 'varchar', length: 27 })
  endpointId: string;

  @Column({ name: 'event_id', type: 'varchar', length: 28 })
  eventId: string;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: WebhookDeliveryStatus;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz' })
  nextAttemptAt: Date;

  @Column({ name: 'lease_owner', type: 'varchar', length: 64, nullable: true })
  leaseOwner: string | null;

  @Column({ name: 'lease_expires_at', type: 'timestamptz', nullable: true })
  leaseExpiresAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** The dashboard user who asked for this delivery again ("Resend"); null for the first one. */
  @Column({ name: 'resent_by', type: 'varchar', length: 128, nullable: true })
  resentBy: string | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt: Date | null;
}
