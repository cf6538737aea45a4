import { ApiProperty } from '@nestjs/swagger';
import {
  ORGANIZATION_STATUSES,
  type OrganizationStatus,
  PAYOUT_NETWORKS,
  type PayoutNetwork,
} from '#app/domain';

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
