import { Layout } from '../components/layout.js';

/** `GET /`: what the service is, and the ways in: sign in, apply, the API reference. */
export function LandingPage(): JSX.Element {
  return (
    <Layout ctx={{ path: '/', csrfToken: '', signedIn: null, flash: null }} title="Welcome">
      <h1>Swap Partners API</h1>
      <p>
        Quote, create and track non-custodial crypto-to-crypto swaps from your own backend, and earn
        a fee on every completed swap. Start in test mode against the sandbox: nothing moves real
        funds until you go live.
      </p>
      <ul class="landing-links">
        <li>
          <a href="/partner/signup">Sign up</a>: apply for an organization and use test mode at
          once.
        </li>
        <li>
          <a href="/partner/login">Sign in</a> to the partner dashboard.
        </li>
        <li>
          <a href="/docs">API reference</a>, and its OpenAPI document{' '}
          <a href="/v1/openapi.json">/v1/openapi.json</a>.
        </li>
      </ul>
    </Layout>
  );
}
