import type { CredentialSummary, OnboardingProgress } from '#app/partners';
import { Notice } from '../components/flash.js';
import { Form } from '../components/form.js';
import { Layout } from '../components/layout.js';
import { CopyButton, CopyScript, SecretNotice } from '../components/secret.js';
import type { PageContext } from '../common/dashboard-request.js';
import type { Walkthrough } from './walkthrough.js';

export const PAGE = '/partner/get-started';

/** The checklist's steps, in the order a partner takes them. */
const STEPS: readonly { key: keyof OnboardingProgress; label: string; how: string }[] = [
  { key: 'testQuote', label: 'First test quote', how: 'Step 1 of the walkthrough.' },
  { key: 'testSwap', label: 'First test swap', how: 'Step 3 of the walkthrough.' },
  {
    key: 'webhookDelivered',
    label: 'First webhook delivered',
    how: 'Add an endpoint on Webhooks (or use listen below) and make a swap.',
  },
  {
    key: 'liveKey',
    label: 'First live key',
    how: 'Once your organization is approved: switch off "Test mode" and create a key on API keys.',
  },
];

export interface GetStartedView {
  /** `https://host`: where partners reach the service. */
  origin: string;
  progress: OnboardingProgress;
  /** The test key the walkthrough is filled in with (the newest usable one). */
  testKey: CredentialSummary | null;
  /** The walkthrough for `testKey`. */
  walkthrough: Walkthrough | null;
  /** A test key just made here: its secret, shown in this answer only. */
  created?: { publicKey: string; secret: string };
  /** Owner or developer, and test keys can be made now. */
  canCreateTestKey: boolean;
  /** Why no test key can be made, when the person could otherwise. */
  blockedReason?: string;
  /** The session is in test mode (test swaps and events are shown). */
  testMode: boolean;
}

function Checklist({ progress }: { progress: OnboardingProgress }): JSX.Element {
  return (
    <section class="panel" aria-labelledby="checklist-heading">
      <h2 id="checklist-heading">Your progress</h2>
      <ul class="checklist">
        {STEPS.map((step) => {
          const done = progress[step.key];
          return (
            <li class={done ? 'done' : 'todo'} data-step={step.key}>
              <span class="tick" aria-hidden="true">
                {done ? '✓' : '○'}
              </span>
              <span class="step" safe>
                {step.label}
              </span>
              <span class="state">{done ? 'Done' : 'Not yet'}</span>
              {done ? (
                ''
              ) : (
                <span class="muted how" safe>
                  {step.how}
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** A block of shell or code to copy, with its "Copy" button. */
function CodeBlock({
  code,
  label,
  name,
}: {
  code: string;
  label: string;
  name: string;
}): JSX.Element {
  return (
    <div class="code-block">
      <pre data-walkthrough={name} tabindex="0">
        <code safe>{code}</code>
      </pre>
      <CopyButton value={code} what={label} />
    </div>
  );
}

function TestKey({ ctx, view }: { ctx: PageContext; view: GetStartedView }): JSX.Element {
  if (view.testKey) {
    return (
      <p>
        The walkthrough uses your test key{' '}
        <code class="mono" data-testid="test-key" safe>
          {view.testKey.publicKey}
        </code>
        {view.testKey.name ? <span safe>{` (${view.testKey.name})`}</span> : ''}. Its secret stays
        out of this page: it was shown when the key was created, and "Reveal secret" on{' '}
        <a href="/partner/api-keys">API keys</a> (with "Test mode" on) shows it again. Put it in{' '}
        <code class="mono">SECRET</code> first:{' '}
        <code class="mono nowrap">export SECRET=sk_test_…</code>
      </p>
    );
  }
  if (view.canCreateTestKey) {
    return (
      <>
        <p>You have no test key yet. A test key works against the sandbox and moves no money.</p>
        <Form ctx={ctx} action={`${PAGE}/test-key`} label="Create a test key">
          <button type="submit">Create a test key</button>
        </Form>
      </>
    );
  }
  return (
    <Notice title="No test key yet">
      <p safe>
        {view.blockedReason ?? 'Ask an owner or a developer of your team to create a test key.'}
      </p>
    </Notice>
  );
}

function Tabs({ walkthrough }: { walkthrough: Walkthrough }): JSX.Element {
  return (
    <div class="tabs">
      <div class="tab-list" role="radiogroup" aria-label="Show the walkthrough with">
        <input type="radio" name="walkthrough-tab" id="tab-curl" class="tab-radio" checked />
        <label for="tab-curl">curl</label>
        <input type="radio" name="walkthrough-tab" id="tab-sdk" class="tab-radio" />
        <label for="tab-sdk">TypeScript SDK</label>
      </div>
      <section class="tab-panel" id="panel-curl" aria-labelledby="curl-heading">
        <h3 id="curl-heading">With curl</h3>
        <p>
          Paste these lines into a shell (they need <code class="mono">curl</code> and{' '}
          <code class="mono">node</code>). The last one prints your swap's page here.
        </p>
        <CodeBlock
          code={walkthrough.create}
          label="curl: from a quote to a test swap"
          name="create"
        />
        <p>
          Then move the swap along, either with the buttons on its page (with "Test mode" on:
          "Simulate deposit", a short or late deposit, any status) or from the same shell:
        </p>
        <CodeBlock
          code={walkthrough.finish}
          label="curl: deposit and poll until finished"
          name="finish"
        />
      </section>
      <section class="tab-panel" id="panel-sdk" aria-labelledby="sdk-heading">
        <h3 id="sdk-heading">With the TypeScript SDK</h3>
        <p>
          The same steps in TypeScript (an ES module, Node 20 or later), with{' '}
          <a href="#sdk">the SDK</a>:
        </p>
        <CodeBlock code={walkthrough.sdk} label="TypeScript: the walkthrough" name="sdk" />
      </section>
    </div>
  );
}

/**
 * "Get started": the API's address and reference, the walkthrough filled in with the partner's
 * own test key (never its secret), the SDK and `listen`, and a checklist read from what the
 * organization really did.
 */
export function GetStartedPage({
  ctx,
  view,
}: {
  ctx: PageContext;
  view: GetStartedView;
}): JSX.Element {
  const baseUrl = `${view.origin}/v1`;
  return (
    <Layout ctx={ctx} title="Get started">
      <h1>Get started</h1>
      <p>
        From a test key to a finished test swap in a few minutes, against the sandbox; then live.
      </p>
      <Checklist progress={view.progress} />
      <section class="panel" aria-labelledby="api-heading">
        <h2 id="api-heading">The API</h2>
        <dl class="facts">
          <dt>API base URL</dt>
          <dd>
            <code class="mono" data-testid="base-url" safe>
              {baseUrl}
            </code>{' '}
            <CopyButton value={baseUrl} what="API base URL" />
          </dd>
          <dt>Reference</dt>
          <dd>
            <a href="/docs">API reference (/docs)</a>, and its OpenAPI document{' '}
            <a href="/v1/openapi.json">/v1/openapi.json</a>
          </dd>
          <dt>Tools</dt>
          <dd>
            <a href="#sdk">The SDK</a> and <a href="#listen">listen</a>
          </dd>
          <dt>Authentication</dt>
          <dd>
            <code class="mono">Authorization: Bearer public_key:secret</code>, from your server only
          </dd>
        </dl>
      </section>
      {view.created ? (
        <SecretNotice title="Your new test key" label="Secret" secret={view.created.secret}>
          <p>
            Public key{' '}
            <code class="mono" safe>
              {view.created.publicKey}
            </code>
            . Copy the secret now: this page shows it this once. Later, "Reveal secret" on API keys
            shows it again after you confirm it is you.
          </p>
        </SecretNotice>
      ) : (
        ''
      )}
      <section class="panel" aria-labelledby="walkthrough-heading">
        <h2 id="walkthrough-heading">The walkthrough</h2>
        <TestKey ctx={ctx} view={view} />
        {view.walkthrough ? <Tabs walkthrough={view.walkthrough} /> : ''}
        {view.testMode ? (
          ''
        ) : (
          <p class="muted">
            Your test swaps and events show under Swaps and Events with "Test mode" on.
          </p>
        )}
      </section>
      <section class="panel" aria-labelledby="sdk-section-heading" id="sdk">
        <h2 id="sdk-section-heading">The SDK</h2>
        <p>
          <code class="mono">swap-partners</code>, for TypeScript and JavaScript: typed from the
          OpenAPI document, it sets the <code class="mono">Idempotency-Key</code>, retries as the
          API's contract says, throws typed errors and verifies webhooks. Its name is not on the npm
          registry yet: install the tarball built from the service's repository, as its{' '}
          <code class="mono">sdk/README.md</code> says (
          <code class="mono">npm run build:sdk &amp;&amp; (cd sdk &amp;&amp; npm pack)</code> there,
          then <code class="mono">npm install /path/to/swap-partners-&lt;version&gt;.tgz</code> in
          your project). Or generate a client of your own from{' '}
          <a href="/v1/openapi.json">the OpenAPI document</a>.
        </p>
      </section>
      <section class="panel" aria-labelledby="listen-heading" id="listen">
        <h2 id="listen-heading">Webhooks on your machine: listen</h2>
        <p>
          <code class="mono">listen</code>, the SDK's command, reads your event feed and forwards
          each event to a receiver on your machine, signed as the service signs its webhooks, so you
          can test one without a public URL:
        </p>
        {view.walkthrough ? (
          <CodeBlock code={view.walkthrough.listen} label="listen" name="listen" />
        ) : (
          <p class="muted">It needs a test key (above).</p>
        )}
        <p>
          For webhooks sent by the service itself, add an endpoint on{' '}
          <a href="/partner/webhooks">Webhooks</a>.
        </p>
      </section>
      <section class="panel" aria-labelledby="live-heading">
        <h2 id="live-heading">Going live</h2>
        <p>
          Once an operator has approved your organization, switch off "Test mode", create a live key
          on <a href="/partner/api-keys">API keys</a> and point your webhooks at your servers. Live
          keys move real funds; every call is the same as in test mode.
        </p>
      </section>
      <CopyScript />
    </Layout>
  );
}
