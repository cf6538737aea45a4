import { Field } from '../components/field.js';
import { FormError, Notice } from '../components/flash.js';
import { Form } from '../components/form.js';
import { Layout } from '../components/layout.js';
import type { PageContext } from '../common/dashboard-request.js';
import { PasskeySignIn } from '../second-factors/second-factors.components.js';

export function LoginPage({
  ctx,
  email,
  next,
  error,
}: {
  ctx: PageContext;
  email?: string;
  next?: string;
  error?: string | null;
}): JSX.Element {
  return (
    <Layout ctx={ctx} title="Sign in">
      <h1>Sign in</h1>
      <FormError message={error} />
      <div class="panel">
        <Form ctx={ctx} action="/partner/login" label="Sign in">
          {next && next !== '/partner' ? <input type="hidden" name="next" value={next} /> : ''}
          <Field
            label="Email"
            name="email"
            type="email"
            value={email}
            autocomplete="username"
            required
          />
          <Field
            label="Password"
            name="password"
            type="password"
            autocomplete="current-password"
            required
          />
          <div class="actions">
            <button type="submit">Sign in</button>
          </div>
        </Form>
      </div>
      <PasskeySignIn ctx={ctx} next={next} />
      <p class="actions">
        <a href="/partner/forgot-password">Forgot password?</a>
        <a href="/partner/signup">Apply for an account</a>
      </p>
    </Layout>
  );
}

/** What every valid application hears, whether or not the address has an account. */
export const APPLICATION_SENT =
  'We sent a link to the email you gave. Follow it to confirm your address and create your organization; it works once, for 24 hours.';

export interface SignupValues {
  organizationName?: string;
  email?: string;
  feePercent?: string;
}

export function SignupPage({
  ctx,
  values,
  errors,
  error,
}: {
  ctx: PageContext;
  values: SignupValues;
  errors: Partial<Record<keyof SignupValues | 'password', string>>;
  error?: string | null;
}): JSX.Element {
  return (
    <Layout ctx={ctx} title="Apply">
      <h1>Apply for a partner account</h1>
      <p>
        Your organization starts in review. Meanwhile you can use test mode: test keys, swaps and
        webhooks work at once.
      </p>
      <FormError message={error} />
      <div class="panel">
        <Form ctx={ctx} action="/partner/signup" label="Apply">
          <Field
            label="Organization name"
            name="organizationName"
            value={values.organizationName}
            autocomplete="organization"
            maxlength={200}
            required
            error={errors.organizationName}
          />
          <Field
            label="Email"
            name="email"
            type="email"
            value={values.email}
            autocomplete="username"
            required
            error={errors.email}
          />
          <Field
            label="Password"
            name="password"
            type="password"
            autocomplete="new-password"
            hint="At least 12 characters, not a common password."
            required
            error={errors.password}
          />
          <Field
            label="Fee percent"
            name="feePercent"
            value={values.feePercent ?? '1'}
            inputmode="decimal"
            hint="Your markup on every swap, from 0 to 4."
            required
            error={errors.feePercent}
          />
          <div class="actions">
            <button type="submit">Apply</button>
          </div>
        </Form>
      </div>
      <p>
        Already have an account? <a href="/partner/login">Sign in</a>
      </p>
    </Layout>
  );
}

/** After applying: the same page whoever the address belongs to. */
export function SignupSentPage({ ctx }: { ctx: PageContext }): JSX.Element {
  return (
    <Layout ctx={ctx} title="Check your email">
      <h1>Check your email</h1>
      <Notice>
        <p role="status">{APPLICATION_SENT}</p>
      </Notice>
      <p>
        No mail after a few minutes? Look in your spam folder, or{' '}
        <a href="/partner/signup">apply again</a>.
      </p>
      <p>
        Already have an account? <a href="/partner/login">Sign in</a>
      </p>
    </Layout>
  );
}

/** The page a confirmation link opens: one button creates the organization (never a GET). */
export function ConfirmApplicationPage({
  ctx,
  token,
  email,
  organizationName,
}: {
  ctx: PageContext;
  token: string;
  email: string;
  organizationName: string;
}): JSX.Element {
  return (
    <Layout ctx={ctx} title="Confirm your application">
      <h1>Confirm your application</h1>
      <p safe>{`${organizationName} applies for a partner account, owned by ${email}.`}</p>
      <div class="panel">
        <Form ctx={ctx} action={`/partner/signup/confirm/${token}`} label="Confirm application">
          <div class="actions">
            <button type="submit">Confirm application</button>
          </div>
        </Form>
      </div>
    </Layout>
  );
}

/** Choosing a password from a link (invitation or reset). */
export function SetPasswordPage({
  ctx,
  title,
  intro,
  action,
  email,
  error,
  button,
}: {
  ctx: PageContext;
  title: string;
  intro: string;
  action: string;
  email: string | null;
  error?: string | null;
  button: string;
}): JSX.Element {
  return (
    <Layout ctx={ctx} title={title}>
      <h1 safe>{title}</h1>
      <p safe>{intro}</p>
      <FormError message={error} />
      <div class="panel">
        <Form ctx={ctx} action={action} label={title}>
          {email ? (
            <input type="hidden" name="username" value={email} autocomplete="username" />
          ) : (
            ''
          )}
          <Field
            label="New password"
            name="password"
            type="password"
            autocomplete="new-password"
            hint="At least 12 characters, not a common password."
            required
          />
          <div class="actions">
            <button type="submit" safe>
              {button}
            </button>
          </div>
        </Form>
      </div>
    </Layout>
  );
}

/** A confirmation link whose address has an account by now (applied twice, one confirmed). */
export function AccountExistsPage({ ctx }: { ctx: PageContext }): JSX.Element {
  return (
    <Layout ctx={ctx} title="Account exists">
      <h1>This email has an account</h1>
      <Notice>
        <p>An account with this email exists already. Sign in instead.</p>
      </Notice>
      <p>
        <a href="/partner/login">Go to sign in</a>
      </p>
    </Layout>
  );
}

export function LinkGonePage({ ctx, what }: { ctx: PageContext; what: string }): JSX.Element {
  return (
    <Layout ctx={ctx} title="Link expired">
      <h1>This link no longer works</h1>
      <Notice>
        <p safe>{`This ${what} link was used already or has expired.`}</p>
      </Notice>
      <p>
        <a href="/partner/login">Go to sign in</a>
      </p>
    </Layout>
  );
}
