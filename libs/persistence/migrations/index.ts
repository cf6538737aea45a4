import { InitialSchema1763700000000 } from './1763700000000-initial-schema.js';
import { UpstreamSlots1763900000000 } from './1763900000000-upstream-slots.js';
import { PollCycles1764000000000 } from './1764000000000-poll-cycles.js';
import { TestMode1764100000000 } from './1764100000000-test-mode.js';
import { EventsAndWebhooks1764200000000 } from './1764200000000-events-and-webhooks.js';
import { DashboardAccounts1764400000000 } from './1764400000000-dashboard-accounts.js';
import { DashboardKeysAndResends1764500000000 } from './1764500000000-dashboard-keys-and-resends.js';
import { DashboardReads1764600000000 } from './1764600000000-dashboard-reads.js';
import { DashboardFactors1764700000000 } from './1764700000000-dashboard-factors.js';
import { DashboardPendingSignIns1764700000001 } from './1764700000001-dashboard-pending-sign-ins.js';
import { DashboardFactorsUsers1764700000002 } from './1764700000002-dashboard-factors-users.js';
import { WidgetKeys1765000000000 } from './1765000000000-widget-keys.js';
import { IdempotencyResponses1765100000000 } from './1765100000000-idempotency-responses.js';
import { WebhookFairness1764800000000 } from './1764800000000-webhook-fairness.js';
import { ListAndFeedIndexes1765300000000 } from './1765300000000-list-and-feed-indexes.js';
import { LiquidityRouting1765400000000 } from './1765400000000-liquidity-routing.js';
import { GetStarted1765520000000 } from './1765520000000-get-started.js';
import { MailOutbox1765530000000 } from './1765530000000-mail-outbox.js';
import { RefundHash1765540000000 } from './1765540000000-refund-hash.js';
import { DashboardApplications1765550000000 } from './1765550000000-dashboard-applications.js';
import { FirstWebhookDelivered1765560000000 } from './1765560000000-first-webhook-delivered.js';

/** Every migration, in order. A new migration is added here (see README, "Adding a migration"). */
export const MIGRATIONS = [
  InitialSchema1763700000000,
  UpstreamSlots1763900000000,
  PollCycles1764000000000,
  TestMode1764100000000,
  EventsAndWebhooks1764200000000,
  DashboardAccounts1764400000000,
  DashboardKeysAndResends1764500000000,
  DashboardReads1764600000000,
  DashboardFactors1764700000000,
  DashboardPendingSignIns1764700000001,
  DashboardFactorsUsers1764700000002,
  WebhookFairness1764800000000,
  WidgetKeys1765000000000,
  IdempotencyResponses1765100000000,
  ListAndFeedIndexes1765300000000,
  LiquidityRouting1765400000000,
  GetStarted1765520000000,
  MailOutbox1765530000000,
  RefundHash1765540000000,
  DashboardApplications1765550000000,
  FirstWebhookDelivered1765560000000,
];
