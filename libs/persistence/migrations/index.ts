import { InitialSchema1763700000000 } from './1763700000000-initial-schema.js';
import { UpstreamSlots1763900000000 } from './1763900000000-upstream-slots.js';
import { PollCycles1764000000000 } from './1764000000000-poll-cycles.js';
import { TestMode1764100000000 } from './1764100000000-test-mode.js';
import { EventsAndWebhooks1764200000000 } from './1764200000000-events-and-webhooks.js';
import { DashboardAccounts1764400000000 } from './1764400000000-dashboard-accounts.js';
import { DashboardKeysAndResends1764500000000 } from './1764500000000-dashboard-keys-and-resends.js';
import { DashboardReads1764600000000 } from './1764600000000-dashboard-reads.js';
import { WidgetKeys1765000000000 } from './1765000000000-widget-keys.js';

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
  WidgetKeys1765000000000,
];
