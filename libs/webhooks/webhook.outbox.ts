import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventOutbox, RecordedEvent } from '#app/events';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';

/** The events lib's outbox port, bound by the apps: each event becomes its webhook deliveries. */
@Injectable()
export class WebhookOutbox implements EventOutbox {
  constructor(private readonly deliveries: WebhookDeliveriesRepository) {}

  async enqueue(manager: EntityManager, event: RecordedEvent): Promise<void> {
    await this.deliveries.enqueue(manager, event);
  }
}
