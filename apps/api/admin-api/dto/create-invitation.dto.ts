import { CreateInvitationInput, DASHBOARD_ROLES } from '#app/accounts';
import { ApiProperties } from '../../platform/contract/api-properties.decorator.js';

@ApiProperties<CreateInvitationInput>({
  email: { format: 'email', maxLength: 254, description: 'Who is invited; unique across users.' },
  role: {
    enum: DASHBOARD_ROLES,
    description:
      '`owner`: everything; `developer`: keys, webhooks, swaps, events; `viewer`: read only.',
  },
})
export class CreateInvitationDto extends CreateInvitationInput {}
