import { CONFIRM_PASSWORD_FIELD } from '#app/accounts';
import { Field } from '../components/field.js';
import { FormError } from '../components/flash.js';
import { PasskeyScripts } from '../second-factors/second-factors.components.js';
import type { ReauthPrompt } from './reauth.js';

/** The form field a re-authentication by authenticator code arrives in. */
export const CONFIRM_CODE_FIELD = 'totpCode';

/** Where the "Confirm with a passkey" control asks for its ceremony and sends its answer. */
export const PASSKEY_CONFIRM_PATH = '/partner/security/confirm/passkey';

/**
 * "Confirm it's you" inside a sensitive form, beside the button it confirms; nothing within 5
 * minutes of a re-authentication. The password field always (the name people and tests look
 * for); with the authenticator app on, an "Authentication code" as the alternative (either
 * suffices, so neither is required then); with a passkey, "Confirm with a passkey": shown by the
 * passkeys script only where WebAuthn can work, it runs the ceremony and comes back to
 * `returnTo` re-authenticated, where the form then asks nothing. With scripts off the password
 * and the code work as they are.
 */
export function ReauthFields({
  prompt,
  returnTo,
  label = 'Password',
  hint,
  error,
}: {
  prompt: ReauthPrompt;
  /** The page (a GET path) to come back to after a passkey confirmed. */
  returnTo: string;
  label?: string;
  hint?: string;
  /** Why the last attempt was refused. */
  error?: string | null;
}): JSX.Element {
  if (!prompt.needed) {
    return '';
  }
  return (
    <fieldset class="reauth">
      <legend>Confirm it's you</legend>
      <FormError message={error} />
      <Field
        label={label}
        name={CONFIRM_PASSWORD_FIELD}
        type="password"
        autocomplete="current-password"
        hint={hint}
        required={!prompt.totp}
      />
      {prompt.totp ? (
        <Field
          label="Authentication code"
          name={CONFIRM_CODE_FIELD}
          autocomplete="one-time-code"
          inputmode="numeric"
          maxlength={64}
          hint="Or, instead of the password, the 6-digit code from your authenticator app."
        />
      ) : (
        ''
      )}
      {prompt.passkey ? (
        <div
          hidden
          data-passkey-confirm
          data-options={`${PASSKEY_CONFIRM_PATH}/options`}
          data-action={PASSKEY_CONFIRM_PATH}
          data-next={returnTo}
          data-failed="No passkey was used. Try again, or enter your password."
        >
          <div class="actions">
            <button type="button" class="secondary">
              Confirm with a passkey
            </button>
            <span class="muted" role="status" data-passkey-status></span>
          </div>
          <PasskeyScripts />
        </div>
      ) : (
        ''
      )}
    </fieldset>
  );
}
