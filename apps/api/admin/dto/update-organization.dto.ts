import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import {
  ORGANIZATION_STATUSES,
  type OrganizationStatus,
  PAYOUT_NETWORKS,
  type PayoutNetwork,
} from '#app/domain';
import { IsFeePercent, toFeePercent } from './fee-percent.js';

/**
 * Every field is optional, but none of the non-nullable ones may be sent as null (that would
 * reach a NOT NULL column); `payoutAddress: null` clears the address.
 */
export class UpdateOrganizationDto {
  @ApiPropertyOptional({ enum: ORGANIZATION_STATUSES })
  @ValidateIf((dto: UpdateOrganizationDto) => dto.status !== undefined)
  @IsIn(ORGANIZATION_STATUSES)
  status?: OrganizationStatus;

  @ApiPropertyOptional({
    type: String,
    example: '2',
    description: 'Decimal string from "0" to "4".',
  })
  @ValidateIf((dto: UpdateOrganizationDto) => dto.feePercent !== undefined)
  @Transform(toFeePercent)
  @IsFeePercent()
  feePercent?: string;

  @ApiPropertyOptional()
  @ValidateIf((dto: UpdateOrganizationDto) => dto.providerActivated !== undefined)
  @IsBoolean()
  providerActivated?: boolean;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 128 })
  @ValidateIf(
    (dto: UpdateOrganizationDto) => dto.payoutAddress !== undefined && dto.payoutAddress !== null,
  )
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  @Matches(/^\S+$/, { message: 'payoutAddress must not contain whitespace.' })
  payoutAddress?: string | null;

  @ApiPropertyOptional({ enum: PAYOUT_NETWORKS })
  @ValidateIf((dto: UpdateOrganizationDto) => dto.payoutNetwork !== undefined)
  @IsIn(PAYOUT_NETWORKS)
  payoutNetwork?: PayoutNetwork;
}
