import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '#app/persistence';
import { OrganizationsRepository, type RecordedFirst } from './organizations.repository.js';

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

/** How many organizations a process remembers as recorded, per step, so it writes each once. */
const MAX_REMEMBERED = 10_000;

/** Organizations whose first of one kind this process has recorded. */
class Recorded {
  private readonly ids = new Set<string>();

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(id: string): void {
    if (this.ids.size >= MAX_REMEMBERED) {
      this.ids.clear();
    }
    this.ids.add(id);
  }
}

/**
 * The dashboard's "Get started" checklist (docs/decisions.md, "Dashboard: Get started"). Swaps
 * and keys are read where they are kept; quotes are stored nowhere else and deliveries are purged
 * after 30 days (or with their endpoint), so the first test quote and the first delivered webhook
 * are timestamps on the organization, each written once.
 */
@Injectable()
export class OnboardingService {
  private readonly logger = new Logger(OnboardingService.name);
  private readonly recorded: Record<RecordedFirst, Recorded> = {
    testQuote: new Recorded(),
    webhookDelivered: new Recorded(),
  };

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly organizations: OrganizationsRepository,
  ) {}

  /**
   * Called after every test quote: the first one is recorded, the others cost nothing here. A
   * failure to record is logged and fails no quote; the next one tries again.
   */
  testQuoteAnswered(organizationId: string): Promise<void> {
    return this.recordFirst('testQuote', organizationId);
  }

  /** Called by the poller after every delivered webhook, the same way (it fails no delivery). */
  webhookDelivered(organizationId: string): Promise<void> {
    return this.recordFirst('webhookDelivered', organizationId);
  }

  async progress(organizationId: string): Promise<OnboardingProgress> {
    const [row] = await queryRows<{
      test_quote: boolean;
      test_swap: boolean;
      webhook_delivered: boolean;
      live_key: boolean;
    }>(
      this.dataSource,
      `SELECT o.first_test_quote_at IS NOT NULL AS test_quote,
              EXISTS (SELECT 1 FROM swaps WHERE organization_id = o.id AND NOT livemode)
                AS test_swap,
              o.first_webhook_delivered_at IS NOT NULL AS webhook_delivered,
              EXISTS (SELECT 1 FROM credentials WHERE organization_id = o.id AND mode = 'live')
                AS live_key
         FROM organizations o
        WHERE o.id = $1`,
      [organizationId],
    );
    return {
      testQuote: row?.test_quote === true,
      testSwap: row?.test_swap === true,
      webhookDelivered: row?.webhook_delivered === true,
      liveKey: row?.live_key === true,
    };
  }

  private async recordFirst(first: RecordedFirst, organizationId: string): Promise<void> {
    const recorded = this.recorded[first];
    if (recorded.has(organizationId)) {
      return;
    }
    try {
      await this.organizations.markFirst(organizationId, first);
    } catch (error: unknown) {
      this.logger.warn(
        {
          orgId: organizationId,
          first,
          err: error instanceof Error ? error.message : String(error),
        },
        'could not record a first step of Get started',
      );
      return;
    }
    recorded.add(organizationId);
  }
}
