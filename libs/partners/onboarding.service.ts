import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '#app/persistence';
import { OrganizationsRepository } from './organizations.repository.js';

/** How far an organization has come on the way in, each step read from what it really did. */
export interface OnboardingProgress {
  /** A test quote was answered (`POST /v1/quotes` or the widget's quote with a test key). */
  testQuote: boolean;
  /** A test swap was created. */
  testSwap: boolean;
  /** A webhook of either mode reached one of its endpoints (a 2xx answer). */
  webhookDelivered: boolean;
  /** A live key was created (even one revoked since). */
  liveKey: boolean;
}

/** Organizations whose first test quote this process has recorded, so it writes it once. */
const MAX_REMEMBERED = 10_000;

/**
 * The dashboard's "Get started" checklist (docs/decisions.md, "Dashboard: Get started"). Swaps,
 * deliveries and keys are read where they are kept; quotes are stored nowhere else, so the first
 * test quote is a timestamp on the organization, written once.
 */
@Injectable()
export class OnboardingService {
  private readonly quoted = new Set<string>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly organizations: OrganizationsRepository,
  ) {}

  /** Called after every test quote: the first one is recorded, the others cost nothing here. */
  async testQuoteAnswered(organizationId: string): Promise<void> {
    if (this.quoted.has(organizationId)) {
      return;
    }
    await this.organizations.markFirstTestQuote(organizationId);
    if (this.quoted.size >= MAX_REMEMBERED) {
      this.quoted.clear();
    }
    this.quoted.add(organizationId);
  }

  async progress(organizationId: string): Promise<OnboardingProgress> {
    const [row] = await queryRows<{
      test_quote: boolean;
      test_swap: boolean;
      webhook_delivered: boolean;
      live_key: boolean;
    }>(
      this.dataSource,
      `SELECT
         (SELECT first_test_quote_at IS NOT NULL FROM organizations WHERE id = $1) AS test_quote,
         EXISTS (SELECT 1 FROM swaps WHERE organization_id = $1 AND NOT livemode) AS test_swap,
         EXISTS (SELECT 1 FROM webhook_endpoints e
                   JOIN webhook_deliveries d ON d.endpoint_id = e.id AND d.status = 'delivered'
                  WHERE e.organization_id = $1) AS webhook_delivered,
         EXISTS (SELECT 1 FROM credentials WHERE organization_id = $1 AND mode = 'live')
           AS live_key`,
      [organizationId],
    );
    return {
      testQuote: row?.test_quote === true,
      testSwap: row?.test_swap === true,
      webhookDelivered: row?.webhook_delivered === true,
      liveKey: row?.live_key === true,
    };
  }
}
