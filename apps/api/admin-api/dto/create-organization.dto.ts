import { ORGANIZATION_DEFAULTS, ORGANIZATION_STATUSES } from '#app/domain';
import { CreateOrganizationInput } from '#app/partners';
import { ApiProperties } from '../../platform/contract/api-properties.decorator.js';

@ApiProperties<CreateOrganizationInput>({
  name: { maxLength: 200, example: 'Acme Wallet' },
  feePercent: {
    type: String,
    example: '1.5',
    description:
      'Partner fee in percent, a decimal string from "0" to "4" (a JSON number is also accepted).',
  },
  status: { required: false, enum: ORGANIZATION_STATUSES, default: ORGANIZATION_DEFAULTS.status },
  providerActivated: { required: false, default: false },
})
export class CreateOrganizationDto extends CreateOrganizationInput {}
