import { CREDENTIAL_MODES } from '#app/domain';
import { CreateCredentialInput } from '#app/partners';
import { ApiProperties } from '../../platform/contract/api-properties.decorator.js';

@ApiProperties<CreateCredentialInput>({
  mode: {
    required: false,
    enum: CREDENTIAL_MODES,
    description:
      '`test` issues a `pk_test_`/`sk_test_` credential; no body, or `live`, a live one.',
  },
})
export class CreateCredentialDto extends CreateCredentialInput {}
