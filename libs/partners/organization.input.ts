import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import {
  ORGANIZATION_DEFAULTS,
  ORGANIZATION_STATUSES,
  type OrganizationStatus,
  PAYOUT_NETWORKS,
  type PayoutNetwork,
} from '#app/domain';
import { IsPlainText } from '#app/input';
import { IsFeePercent, toFeePercent } from './fee-percent.js';
import type { NewOrganization, OrganizationPatch } from './organizations.repository.js';

function trim({ value }: { value: unknown }): unknown {
  return typeof value === 'string' ? value.trim() : value;
}

/**
 * The rules for a new organization, shared by the admin API's body and the admin CLI's flags so
 * both accept exactly the same input.
 */
export class CreateOrganizationInput {
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  @IsPlainText()
  name: string;

  @Transform(toFeePercent)
  @IsFeePercent()
  feePercent: string;

  @IsOptional()
  @IsIn(ORGANIZATION_STATUSES)
  status?: OrganizationStatus;

  @IsOptional()
  @IsBoolean()
  providerActivated?: boolean;
}

/**
 * The rules for an organization update. Every field is optional, but none of the non-nullable ones
 * may be sent as null (that would reach a NOT NULL column); `payoutAddress: null` clears the address.
 */
export class UpdateOrganizationInput {
  @ValidateIf((input: UpdateOrganizationInput) => input.status !== undefined)
  @IsIn(ORGANIZATION_STATUSES)
  status?: OrganizationStatus;

  @ValidateIf((input: UpdateOrganizationInput) => input.feePercent !== undefined)
  @Transform(toFeePercent)
  @IsFeePercent()
  feePercent?: string;

  @ValidateIf((input: UpdateOrganizationInput) => input.providerActivated !== undefined)
  @IsBoolean()
  providerActivated?: boolean;

  @ValidateIf(
    (input: UpdateOrganizationInput) =>
      input.payoutAddress !== undefined && input.payoutAddress !== null,
  )
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  @IsPlainText()
  @Matches(/^\S+$/, { message: 'payoutAddress must not contain whitespace.' })
  payoutAddress?: string | null;

  @ValidateIf((input: UpdateOrganizationInput) => input.payoutNetwork !== undefined)
  @IsIn(PAYOUT_NETWORKS)
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
