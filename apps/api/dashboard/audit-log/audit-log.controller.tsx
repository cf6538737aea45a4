import { Get, Query } from '@nestjs/common';
import type { SignedIn } from '#app/accounts';
import { AuditLogRepository } from '#app/partners';
import type { AuditLogEntryEntity } from '#app/persistence';
import { Layout } from '../components/layout.js';
import { Table } from '../components/table.js';
import type { PageContext } from '../common/dashboard-request.js';
import { AnyRole, CurrentUser, DashboardController, Page } from '../common/dashboard.decorators.js';

const PAGE_SIZE = 50;

function details(entry: AuditLogEntryEntity): string {
  return entry.details ? JSON.stringify(entry.details).slice(0, 300) : '';
}

function AuditLogPage({
  ctx,
  entries,
  older,
  first,
}: {
  ctx: PageContext;
  entries: readonly AuditLogEntryEntity[];
  older: string | null;
  first: boolean;
}): JSX.Element {
  return (
    <Layout ctx={ctx} title="Audit log">
      <h1>Audit log</h1>
      <p>Who did what in your organization: sign-ins, keys, payout address, team and sessions.</p>
      <Table
        caption="Audit entries, newest first"
        rows={entries}
        empty="No entries."
        columns={[
          {
            header: 'When',
            text: (entry) => `${entry.createdAt.toISOString().replace('T', ' ').slice(0, 19)} UTC`,
          },
          { header: 'Who', text: (entry) => entry.actor },
          { header: 'Action', text: (entry) => entry.action },
          { header: 'Target', text: (entry) => `${entry.targetType} ${entry.targetId}` },
          { header: 'Details', text: details },
        ]}
      />
      <nav class="pager" aria-label="Pages">
        {first ? '' : <a href="/partner/audit-log">Newest entries</a>}
        {older ? <a href={`/partner/audit-log?before=${older}`}>Older entries</a> : ''}
      </nav>
    </Layout>
  );
}

/** The organization's own audit log, newest first, paged by entry id (keyset). */
@DashboardController('audit-log')
export class AuditLogController {
  constructor(private readonly audit: AuditLogRepository) {}

  @Get()
  @AnyRole()
  async page(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @Query('before') before: unknown,
  ): Promise<JSX.Element> {
    const cursor =
      typeof before === 'string' && /^[1-9]\d{0,17}$/.test(before) ? before : undefined;
    const rows = await this.audit.listForOrganization(me.organization.id, PAGE_SIZE + 1, cursor);
    const entries = rows.slice(0, PAGE_SIZE);
    const older = rows.length > PAGE_SIZE ? entries[entries.length - 1].id : null;
    return <AuditLogPage ctx={ctx} entries={entries} older={older} first={cursor === undefined} />;
  }
}
