import { ApiProperty } from '@nestjs/swagger';
import {
  ORGANIZATION_STATUSES,
  type OrganizationStatus,
  PAYOUT_NETWORKS,
  type PayoutNetwork,
} from '#app/domain';
import { type OrganizationEntity } from '#app/persistence';
import type { OrganizationPatch } from '#app/partners';
import type { UpdateOrganizationDto } from './update-organization.dto.js';

export class OrganizationView {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({
    type: String,
    example: '1.5',
    description: 'Partner fee in percent, decimal string.',
  })
  feePercent: string;

  @ApiProperty({ enum: ORGANIZATION_STATUSES })
  status: OrganizationStatus;

  @ApiProperty()
  providerActivated: boolean;

  @ApiProperty({ type: String, nullable: true })
  payoutAddress: string | null;

  @ApiProperty({ enum: PAYOUT_NETWORKS })
  payoutNetwork: PayoutNetwork;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class OrganizationResponse {
  @ApiProperty({ type: OrganizationView })
  organization: OrganizationView;
}

export class OrganizationListResponse {
  @ApiProperty({ type: [OrganizationView] })
  organizations: OrganizationView[];
}

export function toOrganizationView(organization: OrganizationEntity): OrganizationView {
  return {
    id: organization.id,
    name: organization.name,
    feePercent: organization.feePercent,
    status: organization.status,
    providerActivated: organization.providerActivated,
    payoutAddress: organization.payoutAddress,
    payoutNetwork: organization.payoutNetwork,
    createdAt: organization.createdAt.toISOString(),
  };
}

/** Only the fields actually sent: an absent field must not reach the update (or the audit entry). */
export function toOrganizationPatch(dto: UpdateOrganizationDto): OrganizationPatch {
  const patch: OrganizationPatch = {};
  if (dto.status !== undefined) {
    patch.status = dto.status;
  }
  if (dto.feePercent !== undefined) {
    patch.feePercent = dto.feePercent;
  }
  if (dto.providerActivated !== undefined) {
    patch.providerActivated = dto.providerActivated;
  }
  if (dto.payoutAddress !== undefined) {
    patch.payoutAddress = dto.payoutAddress;
  }
  if (dto.payoutNetwork !== undefined) {
    patch.payoutNetwork = dto.payoutNetwork;
  }
  return patch;
}
