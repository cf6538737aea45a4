import type { PasskeyView, TotpEnrolment, TotpStatus } from '#app/dashboard-factors';
import { Field } from '../components/field.js';
import { FormError, Notice } from '../components/flash.js';
import { Form } from '../components/form.js';
import { Layout } from '../components/layout.js';
import type { PageContext } from '../common/dashboard-request.js';
import type { ReauthPrompt } from '../common/reauth.js';
import { ReauthFields } from '../common/reauth-field.js';
import { PasskeyForm } from './second-factors.components.js';

/** Where the second-factor settings live (a part of the Security area). */
export const FACTORS_PATH = '/partner/security/second-factors';

const CODE_HINT = 'The 6-digit code from your authenticator app, or one of your recovery codes.';

function dateText(date: Date | null): string {
  return date === null ? 'Never' : date.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}

/**
 * After a right password, when the user has a second factor: the authenticator app's code (or a
 * recovery code) when it is on, and a passkey when the user has one and WebAuthn can work here.
 */
export function SecondFactorPage({
  ctx,
  next,
  error,
  codes,
  passkeys,
}: {
  ctx: PageContext;
  next: string;
  error?: string | null;
  /** The authenticator app is on: a code or a recovery code is asked. */
  codes: boolean;
  /** The user has a passkey and WebAuthn can work at this address. */
  passkeys: boolean;
}): JSX.Element {
  const nextField = next !== '/partner' ? <input type="hidden" name="next" value={next} /> : '';
  return (
    <Layout ctx={ctx} title="Two-step sign-in">
      <h1>Two-step sign-in</h1>
      <FormError message={error} />
      {codes ? (
        <div class="panel">
          <Form ctx={ctx} action="/partner/login/second-factor" label="Verify">
            {nextField}
            <Field
              label="Authentication code"
              name="code"
              autocomplete="one-time-code"
              maxlength={64}
              hint={CODE_HINT}
              required
            />
            <div class="actions">
              <button type="submit">Verify</button>
            </div>
          </Form>
        </div>
      ) : (
        <p>Your account has a passkey: use it to finish signing in.</p>
      )}
      {passkeys ? (
        <>
          <PasskeyForm
            ctx={ctx}
            ceremony="authenticate"
            action="/partner/login/second-factor/passkey"
            options="/partner/login/second-factor/passkey/options"
            label="Use a passkey"
            failed={
              codes ? 'No passkey was used. Try again, or enter a code.' : 'No passkey was used.'
            }
          >
            {nextField}
            <div class="actions">
              <button type="submit">Use a passkey</button>
            </div>
          </PasskeyForm>
          {codes ? (
            ''
          ) : (
            <noscript>
              <p>A passkey needs JavaScript: turn it on for this page, then reload it.</p>
            </noscript>
          )}
        </>
      ) : (
        ''
      )}
      {!codes && !passkeys ? (
        <Notice title="Passkeys are not available here">
          <p>
            Passkeys work when the dashboard is opened by its domain name (or localhost), not by an
            IP address. Open it there to finish signing in.
          </p>
        </Notice>
      ) : (
        ''
      )}
      <p>
        <a href="/partner/login">Start over</a>
      </p>
    </Layout>
  );
}

/** Changes to how you sign in ask to confirm it is you, once per 5 minutes. */
const CHANGE_HINT = 'Changes to how you sign in need this once per 5 minutes.';

function PasskeyRow({
  ctx,
  passkey,
  reauth,
}: {
  ctx: PageContext;
  passkey: PasskeyView;
  reauth: ReauthPrompt;
}): JSX.Element {
  const path = `${FACTORS_PATH}/passkeys/${encodeURIComponent(passkey.id)}`;
  return (
    <li class="panel">
      <p>
        <strong safe>{passkey.name}</strong>
        <br />
        <span class="muted" safe>
          {`Added ${dateText(passkey.createdAt)} · last used ${dateText(passkey.lastUsedAt)}${passkey.synced ? ' · synced' : ''}`}
        </span>
      </p>
      <Form ctx={ctx} action={`${path}/rename`} label={`Rename ${passkey.name}`}>
        <Field label="New name" name="name" value={passkey.name} maxlength={64} required />
        <ReauthFields prompt={reauth} returnTo={FACTORS_PATH} hint={CHANGE_HINT} />
        <button type="submit">Rename</button>
      </Form>
      <Form ctx={ctx} action={`${path}/remove`} label={`Remove ${passkey.name}`}>
        <ReauthFields prompt={reauth} returnTo={FACTORS_PATH} hint={CHANGE_HINT} />
        <button type="submit">Remove</button>
      </Form>
    </li>
  );
}

/**
 * The second-factor parts of the Security page: the authenticator app (TOTP) with its recovery
 * codes, and passkeys.
 */
export function SecondFactorSections({
  ctx,
  totp,
  passkeys,
  reauth,
  passkeysAvailable,
}: {
  ctx: PageContext;
  totp: TotpStatus;
  passkeys: PasskeyView[];
  /** What each change asks to confirm who the person is (nothing within 5 minutes). */
  reauth: ReauthPrompt;
  /** WebAuthn can work at this address (a domain name or localhost). */
  passkeysAvailable: boolean;
}): JSX.Element {
  return (
    <>
      <section class="panel" aria-labelledby="totp-heading">
        <h2 id="totp-heading">Authenticator app</h2>
        {totp.enabled ? (
          <>
            <p safe>
              {`On: sign-in asks for a code from your app. ${totp.recoveryCodesLeft} of 10 recovery codes left.`}
            </p>
            <Form ctx={ctx} action={`${FACTORS_PATH}/recovery-codes`} label="Recovery codes">
              <ReauthFields prompt={reauth} returnTo={FACTORS_PATH} hint={CHANGE_HINT} />
              <button type="submit">Regenerate recovery codes</button>
            </Form>
            <Form
              ctx={ctx}
              action={`${FACTORS_PATH}/totp/disable`}
              label="Turn off the authenticator app"
            >
              <ReauthFields prompt={reauth} returnTo={FACTORS_PATH} hint={CHANGE_HINT} />
              <button type="submit">Turn off authenticator app</button>
            </Form>
          </>
        ) : (
          <>
            <p>Off. With it on, sign-in asks for a 6-digit code from an app on your phone.</p>
            <Form ctx={ctx} action={`${FACTORS_PATH}/totp`} label="Set up the authenticator app">
              <ReauthFields prompt={reauth} returnTo={FACTORS_PATH} hint={CHANGE_HINT} />
              <button type="submit">Set up authenticator app</button>
            </Form>
          </>
        )}
      </section>
      <section class="panel" aria-labelledby="passkeys-heading">
        <h2 id="passkeys-heading">Passkeys</h2>
        <p>A passkey signs you in on its own, with your device's screen lock or security key.</p>
        {passkeys.length === 0 ? (
          <p class="muted">No passkeys yet.</p>
        ) : (
          <ul class="plain">
            {passkeys.map((passkey) => (
              <PasskeyRow ctx={ctx} passkey={passkey} reauth={reauth} />
            ))}
          </ul>
        )}
        {passkeysAvailable ? (
          <PasskeyForm
            ctx={ctx}
            ceremony="register"
            action={`${FACTORS_PATH}/passkeys`}
            options={`${FACTORS_PATH}/passkeys/options`}
            label="Add a passkey"
            failed="No passkey was added."
          >
            <Field label="Passkey name" name="name" maxlength={64} hint="For example: Laptop." />
            <ReauthFields prompt={reauth} returnTo={FACTORS_PATH} hint={CHANGE_HINT} />
            <div class="actions">
              <button type="submit">Add a passkey</button>
            </div>
          </PasskeyForm>
        ) : (
          <Notice title="Passkeys are not available here">
            <p>
              Passkeys work when the dashboard is opened by its domain name (or localhost), not by
              an IP address.
            </p>
          </Notice>
        )}
      </section>
    </>
  );
}

export function SecondFactorsPage(props: Parameters<typeof SecondFactorSections>[0]): JSX.Element {
  return (
    <Layout ctx={props.ctx} title="Second factors">
      <h1>Second factors</h1>
      <p>
        <a href="/partner/security">Back to Security</a>
      </p>
      <SecondFactorSections {...props} />
    </Layout>
  );
}

/** Enrolment: scan the QR code (or type the key), then confirm with a code. */
export function TotpEnrolmentPage({
  ctx,
  enrolment,
  reauth,
  error,
}: {
  ctx: PageContext;
  enrolment: TotpEnrolment;
  reauth: ReauthPrompt;
  error?: string | null;
}): JSX.Element {
  const safeQrSvg = enrolment.qrSvg;
  return (
    <Layout ctx={ctx} title="Set up the authenticator app">
      <h1>Set up the authenticator app</h1>
      <FormError message={error} />
      <div class="panel">
        <p>Scan this QR code with an authenticator app, then enter the code it shows.</p>
        <figure>
          {safeQrSvg}
          <figcaption>
            Or enter this key by hand: <code safe>{enrolment.manualKey}</code>
          </figcaption>
        </figure>
        <Form ctx={ctx} action={`${FACTORS_PATH}/totp/confirm`} label="Turn on">
          <Field
            label="Authentication code"
            name="code"
            autocomplete="one-time-code"
            inputmode="numeric"
            maxlength={64}
            required
          />
          <ReauthFields prompt={reauth} returnTo={`${FACTORS_PATH}/totp`} hint={CHANGE_HINT} />
          <div class="actions">
            <button type="submit">Turn on</button>
            <a href={FACTORS_PATH}>Cancel</a>
          </div>
        </Form>
      </div>
    </Layout>
  );
}

/** New recovery codes, shown this once. */
export function RecoveryCodesPage({
  ctx,
  codes,
}: {
  ctx: PageContext;
  codes: string[];
}): JSX.Element {
  return (
    <Layout ctx={ctx} title="Recovery codes">
      <h1>Save your recovery codes</h1>
      <Notice title="Shown once">
        <p>
          Each code signs you in once if you lose your phone. Keep them somewhere safe: this page
          will not show them again.
        </p>
      </Notice>
      <ol class="panel" aria-label="Recovery codes">
        {codes.map((code) => (
          <li>
            <code safe>{code}</code>
          </li>
        ))}
      </ol>
      <p>
        <a href={FACTORS_PATH}>Done</a>
      </p>
    </Layout>
  );
}

/** "Confirm it's you" before a sensitive change: password, a code, or a passkey. */
export function ConfirmPage({
  ctx,
  next,
  totp,
  passkeys,
  error,
}: {
  ctx: PageContext;
  next: string;
  totp: boolean;
  passkeys: boolean;
  error?: string | null;
}): JSX.Element {
  const nextField = <input type="hidden" name="next" value={next} />;
  return (
    <Layout ctx={ctx} title="Confirm it's you">
      <h1>Confirm it's you</h1>
      <p>Sensitive changes need a fresh confirmation, valid for 5 minutes.</p>
      <FormError message={error} />
      <div class="panel">
        <Form ctx={ctx} action="/partner/security/confirm" label="Confirm with your password">
          {nextField}
          <Field
            label="Password"
            name="confirmPassword"
            type="password"
            autocomplete="current-password"
            required
          />
          <button type="submit">Confirm with password</button>
        </Form>
      </div>
      {totp ? (
        <div class="panel">
          <Form ctx={ctx} action="/partner/security/confirm" label="Confirm with a code">
            {nextField}
            <Field
              label="Authentication code"
              name="totpCode"
              autocomplete="one-time-code"
              inputmode="numeric"
              maxlength={64}
              required
            />
            <button type="submit">Confirm with code</button>
          </Form>
        </div>
      ) : (
        ''
      )}
      {passkeys ? (
        <PasskeyForm
          ctx={ctx}
          ceremony="authenticate"
          action="/partner/security/confirm/passkey"
          options="/partner/security/confirm/passkey/options"
          label="Confirm with a passkey"
          failed="No passkey was used."
        >
          {nextField}
          <button type="submit">Confirm with a passkey</button>
        </PasskeyForm>
      ) : (
        ''
      )}
    </Layout>
  );
}
