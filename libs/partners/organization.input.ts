import { Transform } from 'class-transformer';
import { Matches } from 'class-validator';
import {
  ORGANIZATION_DEFAULTS,
  ORGANIZATION_STATUSES,
  type OrganizationStatus,
  PAYOUT_NETWORKS,
  type PayoutNetwork,
} from '#app/domain';
import { BooleanField, EnumField, Field, StringField, type FieldPresence } from '#app/input';
import { IsFeePercent, toFeePercent } from './fee-percent.js';
import type { NewOrganization, OrganizationPatch } from './organizations.repository.js';

/** A fee in percent: a number or a decimal string, kept as its canonical string. */
function FeePercentField(presence: FieldPresence = {}): PropertyDecorator {
  return Field(presence, Transform(toFeePercent), IsFeePercent());
}

/**
 * The rules for a new organization, shared by the admin API's body and the admin CLI's flags so
 * both accept exactly the same input.
 */
export class CreateOrganizationInput {
  @StringField('name', { maxLength: 200, notEmpty: true, trim: true })
  name: string;

  @FeePercentField()
  feePercent: string;

  @EnumField('status', ORGANIZATION_STATUSES, { required: false })
  status?: OrganizationStatus;

  @BooleanField('providerActivated', { required: false })
  providerActivated?: boolean;
}

/**
 * The rules for an organization update. Every field is optional and null leaves it as it is,
 * except `payoutAddress`, where null is a value: it clears the address.
 */
export class UpdateOrganizationInput {
  @EnumField('status', ORGANIZATION_STATUSES, { required: false })
  status?: OrganizationStatus;

  @FeePercentField({ required: false })
  feePercent?: string;

  @BooleanField('providerActivated', { required: false })
  providerActivated?: boolean;

  @StringField(
    'payoutAddress',
    { maxLength: 128, notEmpty: true, nullable: true },
    Matches(/^\S+$/, { message: 'payoutAddress must not contain whitespace.' }),
  )
  payoutAddress?: string | null;

  @EnumField('payoutNetwork', PAYOUT_NETWORKS, { required: false })
  payoutNetwork?: PayoutNetwork;
}

/** The domain's organization defaults, with what the operator chose. */
export function toNewOrganization(input: CreateOrganizationInput): NewOrganization {
  return {
    ...ORGANIZATION_DEFAULTS,
    name: input.name,
    feePercent: input.feePercent,
    status: input.status ?? ORGANIZATION_DEFAULTS.status,
    providerActivated: input.providerActivated ?? ORGANIZATION_DEFAULTS.providerActivated,
  };
}

/** Only the fields actually sent: an absent field must not reach the update (or the audit entry). */
export function toOrganizationPatch(input: UpdateOrganizationInput): OrganizationPatch {
  const patch: OrganizationPatch = {};
  if (input.status !== undefined) {
    patch.status = input.status;
  }
  if (input.feePercent !== undefined) {
    patch.feePercent = input.feePercent;
  }
  if (input.providerActivated !== undefined) {
    patch.providerActivated = input.providerActivated;
  }
  if (input.payoutAddress !== undefined) {
    patch.payoutAddress = input.payoutAddress;
  }
  if (input.payoutNetwork !== undefined) {
    patch.payoutNetwork = input.payoutNetwork;
  }
  return patch;
}
