import { SWAP_STATUSES } from '#app/domain';
import type { KeysetPage } from '#app/persistence';
import { swapFiltersQuery, type FilterError, type SwapFilters, type SwapView } from '#app/swaps';
import { Field, SelectField } from '../components/field.js';
import { pairLabel, when } from '../data/formats.js';
import { Layout } from '../components/layout.js';
import { Table, type Column } from '../components/table.js';
import type { PageContext } from '../common/dashboard-request.js';

function link(query: Record<string, string>): string {
  const search = new URLSearchParams(query).toString();
  return search === '' ? '/partner/swaps' : `/partner/swaps?${search}`;
}

const COLUMNS: Column<SwapView>[] = [
  {
    header: 'Swap',
    cell: (swap) => (
      <a href={`/partner/swaps/${encodeURIComponent(swap.id)}`} class="mono" safe>
        {swap.id}
      </a>
    ),
  },
  { header: 'Created', text: (swap) => when(swap.createdAt) },
  { header: 'Status', text: (swap) => swap.status },
  { header: 'Pair', text: (swap) => pairLabel(swap.from, swap.to) },
  { header: 'Amount', text: (swap) => `${swap.amountFrom} ${swap.from}` },
  {
    header: 'Deposit received',
    text: (swap) =>
      swap.amountActualFrom === null ? '—' : `${swap.amountActualFrom} ${swap.from}`,
  },
  { header: 'Your reference', text: (swap) => swap.partnerReferenceId ?? '—' },
];

export interface SwapsPageProps {
  ctx: PageContext;
  filters: SwapFilters;
  errors: FilterError[];
  page: KeysetPage<SwapView>;
  pairs: { from: string; to: string }[];
}

/**
 * The organization's swaps in the session's mode: a filter form (a GET form, so a filtered
 * list is a link), the export of what it selects, one page of the list and its "Previous" and
 * "Next" links.
 */
export function SwapsPage({ ctx, filters, errors, page, pairs }: SwapsPageProps): JSX.Element {
  const query = swapFiltersQuery(filters);
  const pair = filters.from && filters.to ? `${filters.from}:${filters.to}` : '';
  const pairOptions = pairs.map((p) => ({
    value: `${p.from}:${p.to}`,
    label: pairLabel(p.from, p.to),
  }));
  if (pair !== '' && !pairOptions.some((o) => o.value === pair)) {
    pairOptions.push({ value: pair, label: pairLabel(filters.from ?? '', filters.to ?? '') });
  }
  const errorOf = (param: string): string | null =>
    errors.find((e) => e.param === param)?.message ?? null;
  const filtered = Object.keys(query).length > 0;
  return (
    <Layout ctx={ctx} title="Swaps">
      <h1>Swaps</h1>
      {errors.length > 0 ? (
        <div class="flash error" role="alert">
          <p>Some filters were not understood and are not applied:</p>
          <ul>
            {errors.map((e) => (
              <li safe>{e.message}</li>
            ))}
          </ul>
        </div>
      ) : (
        ''
      )}
      <form method="get" action="/partner/swaps" class="panel filters" aria-label="Filter swaps">
        <SelectField
          label="Status"
          name="status"
          selected={filters.status ?? ''}
          error={errorOf('status')}
          options={[
            { value: '', label: 'Any status' },
            ...SWAP_STATUSES.map((s) => ({ value: s, label: s })),
          ]}
        />
        <SelectField
          label="Pair"
          name="pair"
          selected={pair}
          error={errorOf('pair')}
          options={[{ value: '', label: 'Any pair' }, ...pairOptions]}
        />
        <Field
          label="Created from"
          name="createdFrom"
          type="date"
          value={filters.createdFrom ?? ''}
          error={errorOf('createdFrom')}
        />
        <Field
          label="Created to"
          name="createdTo"
          type="date"
          value={filters.createdTo ?? ''}
          error={errorOf('createdTo')}
        />
        <Field
          label="Search"
          name="q"
          type="search"
          value={filters.search ?? ''}
          maxlength={256}
          hint="A swap id, your reference, or a payin or payout address"
          error={errorOf('q')}
        />
        <div class="actions">
          <button type="submit">Apply filters</button>
          {filtered ? <a href="/partner/swaps">Clear filters</a> : ''}
        </div>
      </form>
      <form method="get" action="/partner/swaps/export" class="export" aria-label="Export swaps">
        {Object.entries(query).map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
        <button type="submit" class="secondary">
          Export CSV
        </button>
        <span class="muted">{filtered ? ' Every swap the filters select.' : ' Every swap.'}</span>
      </form>
      <Table
        caption={filtered ? 'Swaps matching the filters, newest first' : 'Swaps, newest first'}
        columns={COLUMNS}
        rows={page.items}
        empty={filtered ? 'No swap matches these filters.' : 'No swaps yet.'}
      />
      {page.previous !== null || page.next !== null ? (
        <nav class="pager" aria-label="Pages">
          {page.previous !== null ? (
            <a href={link({ ...query, before: page.previous })} rel="prev">
              Previous
            </a>
          ) : (
            ''
          )}
          {page.next !== null ? (
            <a href={link({ ...query, after: page.next })} rel="next">
              Next
            </a>
          ) : (
            ''
          )}
        </nav>
      ) : (
        ''
      )}
    </Layout>
  );
}
