import { ORGANIZATION_STATUSES, PAYOUT_NETWORKS } from '#app/domain';
import { UpdateOrganizationInput } from '#app/partners';
import { ApiProperties } from '../../platform/contract/api-properties.decorator.js';

@ApiProperties<UpdateOrganizationInput>({
  status: { required: false, enum: ORGANIZATION_STATUSES },
  feePercent: {
    required: false,
    type: String,
    example: '2',
    description: 'Decimal string from "0" to "4".',
  },
  providerActivated: { required: false },
  payoutAddress: { required: false, type: String, nullable: true, maxLength: 128 },
  payoutNetwork: { required: false, enum: PAYOUT_NETWORKS },
})
export class UpdateOrganizationDto extends UpdateOrganizationInput {}
