import type { SignedIn } from '#app/accounts';
import type { ActivitySeries, EarningsSummary } from '#app/earnings';
import { Notice } from '../components/flash.js';
import { Layout } from '../components/layout.js';
import { EarningsFigures } from '../earnings/earnings-figures.js';
import type { PageContext } from '../common/dashboard-request.js';
import { ActivityCharts } from './activity-chart.js';

const STATUS_LABELS: Record<SignedIn['organization']['status'], string> = {
  pending_review: 'Pending review',
  active: 'Active',
  suspended: 'Suspended',
  rejected: 'Rejected',
};

/** What the organization should do next, given where it stands. */
export function NextSteps({ signedIn }: { signedIn: SignedIn }): JSX.Element {
  const { organization } = signedIn;
  switch (organization.status) {
    case 'pending_review':
      return (
        <Notice title="What to do next">
          <p>
            {signedIn.session.mode === 'test'
              ? 'Your application is in review. Use test mode meanwhile: it is on, so '
              : 'Your application is in review. Use test mode meanwhile: switch on "Test mode", '}
            create a test key and try the whole flow against the sandbox, step by step on{' '}
            <a href="/partner/get-started">Get started</a>.
          </p>
        </Notice>
      );
    case 'active':
      return organization.providerActivated ? (
        <Notice title="What to do next">
          <p>
            You are live. Create a live key on <a href="/partner/api-keys">API keys</a> and point
            your webhooks at your servers.
          </p>
        </Notice>
      ) : (
        <Notice title="What to do next">
          <p>
            Your organization is active; the provider is still activating it, so live quotes and
            swaps answer 503 provider_credential_pending for now. Test mode works meanwhile.
          </p>
        </Notice>
      );
    case 'suspended':
      return (
        <Notice title="What to do next">
          <p>Your organization is suspended: live calls are refused. Contact us to restore it.</p>
        </Notice>
      );
    case 'rejected':
      return (
        <Notice title="What to do next">
          <p>Your application was not accepted. Contact us if you think this is a mistake.</p>
        </Notice>
      );
  }
}

export function OverviewPage({
  ctx,
  signedIn,
  activity,
  earnings,
}: {
  ctx: PageContext;
  signedIn: SignedIn;
  /** The session mode's last 30 days. */
  activity?: ActivitySeries;
  /** The organization's (live) earnings. */
  earnings?: EarningsSummary;
}): JSX.Element {
  return (
    <Layout ctx={ctx} title="Overview">
      <h1>Overview</h1>
      <section class="panel" aria-labelledby="org-heading">
        <h2 id="org-heading" safe>
          {signedIn.organization.name}
        </h2>
        <dl class="facts">
          <dt>Status</dt>
          <dd safe>{STATUS_LABELS[signedIn.organization.status]}</dd>
          <dt>Mode</dt>
          <dd>{signedIn.session.mode === 'test' ? 'Test' : 'Live'}</dd>
        </dl>
      </section>
      <NextSteps signedIn={signedIn} />
      {activity ? <ActivityCharts activity={activity} /> : ''}
      {earnings ? (
        <section class="panel" aria-labelledby="earnings-heading">
          <h2 id="earnings-heading">Earnings</h2>
          <EarningsFigures summary={earnings} />
          <p>
            <a href="/partner/earnings">Ledger, payouts and payout address</a>
          </p>
        </section>
      ) : (
        ''
      )}
    </Layout>
  );
}
