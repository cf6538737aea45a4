import { CONFIRM_PASSWORD_FIELD, type SignedIn } from '#app/accounts';
import { Field } from '../components/field.js';

/**
 * The password confirmation of a sensitive form, in the same form as its button: shown unless
 * the session re-authenticated within the last 5 minutes.
 */
export function ReauthField({
  signedIn,
  recent,
  label = 'Your password',
}: {
  signedIn: SignedIn;
  recent: boolean;
  label?: string;
}): JSX.Element {
  if (recent) {
    return '';
  }
  return (
    <Field
      label={label}
      name={CONFIRM_PASSWORD_FIELD}
      type="password"
      autocomplete="current-password"
      id={`reauth-${signedIn.session.id.slice(0, 8)}-${Math.random().toString(36).slice(2, 8)}`}
      required
    />
  );
}
