import type { Children } from '@kitajs/html';
import { Form } from '../components/form.js';
import type { PageContext } from '../common/dashboard-request.js';
import { asset } from '../../platform/assets/asset.registry.js';

/** The scripts a page with a passkey form loads (served assets; nothing inline). */
export function PasskeyScripts(): JSX.Element {
  return (
    <>
      <script src={asset('simplewebauthn-browser.js').url} defer></script>
      <script src={asset('passkeys.js').url} defer></script>
    </>
  );
}

/**
 * A passkey form: hidden until the passkeys script finds that WebAuthn can work here, so with
 * scripts off or on an IP address there is no button that cannot work. The ceremony's answer
 * travels in the `credential` field of an ordinary form post.
 */
export function PasskeyForm({
  ctx,
  ceremony,
  action,
  options,
  label,
  failed,
  children,
}: {
  ctx: Pick<PageContext, 'csrfToken'>;
  ceremony: 'register' | 'authenticate';
  action: string;
  /** Where the script asks for the ceremony's options. */
  options: string;
  label: string;
  /** What to say when no passkey was used. */
  failed: string;
  children?: Children;
}): JSX.Element {
  return (
    <div class="passkey" hidden data-passkey={ceremony} data-options={options} data-failed={failed}>
      <Form ctx={ctx} action={action} label={label}>
        <input type="hidden" name="credential" value="" />
        {children}
      </Form>
      <p class="muted" role="status" data-passkey-status></p>
      <PasskeyScripts />
    </div>
  );
}

/** "Sign in with a passkey" on the sign-in page: a passkey signs in alone. */
export function PasskeySignIn({
  ctx,
  next,
}: {
  ctx: Pick<PageContext, 'csrfToken'>;
  next?: string;
}): JSX.Element {
  return (
    <PasskeyForm
      ctx={ctx}
      ceremony="authenticate"
      action="/partner/login/passkey"
      options="/partner/login/passkey/options"
      label="Sign in with a passkey"
      failed="No passkey was used. Try again, or sign in with your password."
    >
      {next && next !== '/partner' ? <input type="hidden" name="next" value={next} /> : ''}
      <div class="actions">
        <button type="submit">Sign in with a passkey</button>
      </div>
    </PasskeyForm>
  );
}

/** The Security page's pointer to the second-factor settings. */
export function SecondFactorsSection(): JSX.Element {
  return (
    <section class="panel" aria-labelledby="second-factors-heading">
      <h2 id="second-factors-heading">Second factors</h2>
      <p>An authenticator app with recovery codes, and passkeys, keep your account safe.</p>
      <a href="/partner/security/second-factors">Manage second factors</a>
    </section>
  );
}
