import { PAYOUT_NETWORKS, type PayoutNetwork } from '#app/domain';
import type { KeysetPage } from '#app/persistence';
import type { EarningsSummary, LedgerEntryView, PayoutView } from '#app/earnings';
import { Field, SelectField } from '../components/field.js';
import { FormError } from '../components/flash.js';
import { Form } from '../components/form.js';
import { Layout } from '../components/layout.js';
import { Table, type Column } from '../components/table.js';
import { EarningsFigures } from './earnings-figures.js';
import type { PageContext } from '../common/dashboard-request.js';
import type { ReauthPrompt } from '../common/reauth.js';
import { ReauthFields } from '../common/reauth-field.js';
import { when } from '../data/formats.js';

export const NETWORK_LABELS: Record<PayoutNetwork, string> = {
  trc20: 'USDT TRC-20 (TRON)',
  erc20: 'USDT ERC-20 (Ethereum)',
};

const LEDGER_COLUMNS: Column<LedgerEntryView>[] = [
  { header: 'Booked', text: (e) => when(e.createdAt) },
  {
    header: 'Swap',
    cell: (e) => (
      <a href={`/partner/swaps/${encodeURIComponent(e.swapId)}`} class="mono" safe>
        {e.swapId}
      </a>
    ),
  },
  { header: 'Received', text: (e) => `${e.amountActualFrom} ${e.from}` },
  { header: 'USD price', text: (e) => e.usdPrice },
  { header: 'Fee', text: (e) => `${e.feePercent} %` },
  { header: 'Earned (USD)', text: (e) => e.amountUsd },
];

const PAYOUT_COLUMNS: Column<PayoutView>[] = [
  { header: 'Created', text: (p) => when(p.createdAt) },
  { header: 'Amount (USD)', text: (p) => p.amountUsd },
  { header: 'Paid in', text: (p) => `${p.asset.toUpperCase()} ${p.network.toUpperCase()}` },
  {
    header: 'To',
    cell: (p) => (
      <span class="mono" safe>
        {p.address ?? 'no address yet'}
      </span>
    ),
  },
  { header: 'Status', text: (p) => (p.status === 'paid' ? 'Paid' : 'Due') },
];

/** What the payout address form shows again after it was refused. */
export interface PayoutForm {
  values: { payoutAddress: string; payoutNetwork: string };
  errors: { payoutAddress?: string; payoutNetwork?: string; reauth?: string };
  error?: string;
}

export interface EarningsPageProps {
  ctx: PageContext;
  summary: EarningsSummary;
  ledger: KeysetPage<LedgerEntryView>;
  payouts: PayoutView[];
  destination: { address: string | null; network: PayoutNetwork };
  /** Only owners change the payout address: nobody else sees the form. */
  canChangePayout: boolean;
  /** What the payout form asks to confirm who the person is (nothing within 5 minutes). */
  reauth: ReauthPrompt;
  form?: PayoutForm;
}

function PayoutAddressForm({
  ctx,
  destination,
  reauth,
  form,
}: Pick<EarningsPageProps, 'ctx' | 'destination' | 'reauth' | 'form'>): JSX.Element {
  const values = form?.values ?? {
    payoutAddress: destination.address ?? '',
    payoutNetwork: destination.network,
  };
  return (
    <Form
      ctx={ctx}
      action="/partner/earnings/payout-address"
      label="Change where payouts go"
      id="payout-form"
    >
      <FormError message={form?.error} />
      <SelectField
        label="Network"
        name="payoutNetwork"
        selected={values.payoutNetwork}
        error={form?.errors.payoutNetwork}
        options={PAYOUT_NETWORKS.map((n) => ({ value: n, label: NETWORK_LABELS[n] }))}
      />
      <Field
        label="Payout address"
        name="payoutAddress"
        value={values.payoutAddress}
        required
        maxlength={128}
        autocomplete="off"
        hint="A USDT address on the network above; it is checked before it is saved."
        error={form?.errors.payoutAddress}
      />
      <ReauthFields
        prompt={reauth}
        returnTo="/partner/earnings"
        hint="Changes to where payouts go need this once per 5 minutes."
        error={form?.errors.reauth}
      />
      <button type="submit">Save payout address</button>
    </Form>
  );
}

/**
 * Earnings of the organization (live swaps only: test swaps never earn): the figures, the way
 * to the payout threshold, the payout destination (its form for owners), payouts and the ledger.
 */
export function EarningsPage(props: EarningsPageProps): JSX.Element {
  const { ctx, summary, ledger, payouts, destination } = props;
  const test = ctx.signedIn?.session.mode === 'test';
  return (
    <Layout ctx={ctx} title="Earnings">
      <h1>Earnings</h1>
      {test ? (
        <p class="notice">
          Test swaps never earn: these are your live earnings, whatever the mode.
        </p>
      ) : (
        ''
      )}
      <section class="panel" aria-labelledby="figures-heading">
        <h2 id="figures-heading">In USD</h2>
        <EarningsFigures summary={summary} />
        <form method="get" action="/partner/earnings/export" aria-label="Export the ledger">
          <button type="submit" class="secondary">
            Export CSV
          </button>
          <span class="muted"> The whole ledger.</span>
        </form>
      </section>
      <section class="panel" aria-labelledby="payout-heading">
        <h2 id="payout-heading">Payout destination</h2>
        <p safe>
          {destination.address === null
            ? `No payout address yet: payouts wait for one. Network: ${NETWORK_LABELS[destination.network]}.`
            : `${NETWORK_LABELS[destination.network]}: ${destination.address}`}
        </p>
        {props.canChangePayout ? (
          <PayoutAddressForm
            ctx={ctx}
            destination={destination}
            reauth={props.reauth}
            form={props.form}
          />
        ) : (
          <p class="muted">Only an owner can change the payout address.</p>
        )}
      </section>
      <section aria-labelledby="payouts-heading">
        <h2 id="payouts-heading">Payouts</h2>
        <Table
          caption="Payouts, newest first"
          columns={PAYOUT_COLUMNS}
          rows={payouts}
          empty="No payouts yet: one is due once 100 USD have accrued."
        />
      </section>
      <section aria-labelledby="ledger-heading">
        <h2 id="ledger-heading">Ledger</h2>
        <Table
          caption="Fees booked per finished swap, newest first"
          columns={LEDGER_COLUMNS}
          rows={ledger.items}
          empty="Nothing earned yet: each finished live swap books its fee here."
        />
        {ledger.previous !== null || ledger.next !== null ? (
          <nav class="pager" aria-label="Ledger pages">
            {ledger.previous !== null ? (
              <a
                href={`/partner/earnings?before=${encodeURIComponent(ledger.previous)}`}
                rel="prev"
              >
                Previous
              </a>
            ) : (
              ''
            )}
            {ledger.next !== null ? (
              <a href={`/partner/earnings?after=${encodeURIComponent(ledger.next)}`} rel="next">
                Next
              </a>
            ) : (
              ''
            )}
          </nav>
        ) : (
          ''
        )}
      </section>
    </Layout>
  );
}
