import { CREDENTIAL_MODES, type CredentialMode } from '#app/domain';
import { EnumField } from '#app/input';

/** A new credential: live unless asked otherwise. Shared by the admin API's body and the CLI. */
export class CreateCredentialInput {
  @EnumField('mode', CREDENTIAL_MODES, { required: false })
  mode?: CredentialMode;
}
