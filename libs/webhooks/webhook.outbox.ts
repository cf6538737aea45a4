import { Injectable } from '@nestjs/common';
import type { EventOutbox } from '#app/events';
import type { BatchStatement } from '#app/persistence';
import { WebhookDeliveryClaims } from './webhook-delivery-claims.repository.js';

/** The events lib's outbox port, bound by the apps: each event becomes its webhook deliveries. */
@Injectable()
export class WebhookOutbox implements EventOutbox {
  constructor(private readonly deliveries: WebhookDeliveryClaims) {}

  enqueueWithin(statement: BatchStatement, recorded: string): void {
    this.deliveries.enqueueWithin(statement, recorded);
  }
}
